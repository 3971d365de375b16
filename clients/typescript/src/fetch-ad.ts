import type { Client } from 'openapi-fetch';
import { CircuitBreaker } from './circuit-breaker';
import { formatConversation, type ConversationMessage } from './conversation';
import type { paths } from './schema';

type FetchAdsOperation = paths['/api/fetch-ads']['post'];
type FetchAdsBody = FetchAdsOperation['requestBody']['content']['application/json'];

/** One ad of a fetch-ads answer: append its `campaign_markdown` to the AI reply as it is. */
export type Advertisement =
  FetchAdsOperation['responses'][200]['content']['application/json']['advertisements'][number];

/**
 * What `fetchAd` sends: the conversation (a string, or messages it turns into one) and the
 * keywords, plus any optional fetch-ads field (`locale`, `user_location`, `session_id`, …).
 */
export type FetchAdOptions = Omit<
  FetchAdsBody,
  'conversation' | 'context_keywords' | 'messages'
> & {
  /** Comma-separated keywords, or a list of them; none answers `null` without a call. */
  keywords: string | readonly string[];
  /** Overrides the client's timeout for this call, in milliseconds. */
  timeoutMs?: number;
} & (
    | { conversation: string; messages?: never; lastMessages?: never }
    | {
        /** Sent as `role: text` lines (the last `lastMessages`, default 6). */
        messages: ConversationMessage[];
        lastMessages?: number;
        conversation?: never;
      }
  );

export interface FetchAdSettings {
  /** How long to wait for an ad, in milliseconds (default 800). */
  timeoutMs?: number;
  /** Told about every failed request (network, timeout, status, body), for your logs. */
  onError?: (error: AdlineRequestError) => void;
}

/** Why a fetch-ads request gave no ad although one was asked for. */
export class AdlineRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AdlineRequestError';
  }
}

type Outcome = { ad: Advertisement | null } | { error: AdlineRequestError };

/**
 * The `fetchAd` of one client: the first ad, or `null` on no match and on ANY failure, never
 * an exception, and never later than the timeout. The breaker is this client's own.
 */
export function createFetchAd(
  client: Client<paths>,
  breaker: CircuitBreaker,
  settings: FetchAdSettings = {},
): (options: FetchAdOptions) => Promise<Advertisement | null> {
  return async function fetchAd(options) {
    try {
      const { keywords, timeoutMs, conversation, messages, lastMessages, ...optional } = options;
      const contextKeywords = typeof keywords === 'string' ? keywords : keywords.join(', ');
      // fetch-ads refuses a request without keywords; there is no ad to ask for then.
      if (contextKeywords.trim() === '' || !breaker.allowsCall()) return null;
      const body: FetchAdsBody = {
        ...optional,
        conversation: messages ? formatConversation(messages, lastMessages) : (conversation ?? ''),
        context_keywords: contextKeywords,
      };
      const outcome = await withTimeout(timeoutMs ?? settings.timeoutMs ?? 800, (signal) =>
        request(client, body, signal),
      );
      if ('ad' in outcome) {
        breaker.recordSuccess();
        return outcome.ad;
      }
      breaker.recordFailure();
      settings.onError?.(outcome.error);
      return null;
    } catch (error) {
      // Only a throwing onError gets here; the publisher's reply must still go out.
      void error;
      return null;
    }
  };
}

async function request(
  client: Client<paths>,
  body: FetchAdsBody,
  signal: AbortSignal,
): Promise<Outcome> {
  try {
    const { data, error, response } = await client.POST('/api/fetch-ads', { body, signal });
    if (response.status === 404 && codeOf(error) === 'no_matching_ad') return { ad: null };
    if (!response.ok) {
      return {
        error: new AdlineRequestError(`fetch-ads answered ${response.status}`, response.status),
      };
    }
    // Read defensively: a proxy in between may answer 200 with anything.
    const ads: unknown = data?.advertisements;
    if (!Array.isArray(ads)) {
      return {
        error: new AdlineRequestError('fetch-ads answered a body without advertisements', 200),
      };
    }
    const first = ads[0] as Advertisement | undefined;
    if (first !== undefined && typeof first.campaign_markdown !== 'string') {
      return {
        error: new AdlineRequestError('fetch-ads answered an ad without campaign_markdown', 200),
      };
    }
    return { ad: first ?? null };
  } catch (cause) {
    return { error: new AdlineRequestError('fetch-ads failed', undefined, { cause }) };
  }
}

function codeOf(problem: unknown): unknown {
  return typeof problem === 'object' && problem !== null && 'code' in problem
    ? problem.code
    : undefined;
}

/**
 * Runs `work` with a signal that aborts after `ms`, and answers a timeout error by then even
 * if `work` ignores the signal (a custom fetch, a body that never ends).
 */
async function withTimeout(
  ms: number,
  work: (signal: AbortSignal) => Promise<Outcome>,
): Promise<Outcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ error: new AdlineRequestError(`fetch-ads timed out after ${ms} ms`) });
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
