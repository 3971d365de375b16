import createClient from 'openapi-fetch';
import { AdlineRequestError } from './fetch-ad';
import type { components, paths } from './schema';

export type Conversion = components['schemas']['ConversionDto'];
export type ConversionResult = components['schemas']['ConversionResultDto'];

export interface AdlineConversionsOptions {
  /** Where Adline answers, e.g. `https://ads.example.com`. */
  baseUrl: string;
  /** The advertiser's key (`adl_adv_…`), from the operator; keep it on your server. */
  advertiserKey: string;
  /** Give up on a call after this many milliseconds (default 10,000). */
  timeoutMs?: number;
  /** A fetch of your own (tests, proxies); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface AdlineConversions {
  /**
   * Reports conversions (one, or a list of up to 1,000 in one request) and answers each one's
   * result, in order: `accepted`, `duplicate` (its `event_id` was recorded before) or
   * `rejected` with a `code`. Throws `AdlineRequestError` when the request as a whole
   * failed (network, timeout, bad key, rate limit): sending the same conversions again is
   * safe, since an `event_id` counts once.
   */
  send(conversions: Conversion | Conversion[]): Promise<ConversionResult[]>;
}

/** The advertiser's side: `POST /api/conversions` with the advertiser key. */
export function createAdlineConversions(options: AdlineConversionsOptions): AdlineConversions {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    async send(conversions) {
      const body = Array.isArray(conversions) ? { conversions } : conversions;
      let answer;
      try {
        answer = await client.POST('/api/conversions', {
          body,
          headers: { authorization: `Bearer ${options.advertiserKey}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        throw new AdlineRequestError('conversions request failed', undefined, { cause });
      }
      const { data, error, response } = answer;
      if (!data) {
        const code = (error as { code?: string } | undefined)?.code ?? 'unexpected answer';
        throw new AdlineRequestError(
          `conversions answered ${response.status}: ${code}`,
          response.status,
        );
      }
      return data.results;
    },
  };
}
