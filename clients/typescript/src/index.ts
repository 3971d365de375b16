export { createAdlineClient, type AdlineClient, type AdlineClientOptions } from './client';
export { AdlineRequestError, type Advertisement, type FetchAdOptions } from './fetch-ad';
export { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';
export { formatConversation, type ConversationMessage } from './conversation';
export type { components, operations, paths } from './schema';
