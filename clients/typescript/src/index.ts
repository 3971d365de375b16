export { createAdlineClient, type AdlineClient, type AdlineClientOptions } from './client';
export { AdlineRequestError, type Advertisement, type FetchAdOptions } from './fetch-ad';
export type { ViewableAd } from './record-view';
export {
  createAdlineConversions,
  type AdlineConversions,
  type AdlineConversionsOptions,
  type Conversion,
  type ConversionResult,
} from './conversions';
export { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';
export { formatConversation, type ConversationMessage } from './conversation';
export type { components, operations, paths } from './schema';
