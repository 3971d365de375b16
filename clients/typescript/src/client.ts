import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';
import {
  createFetchAd,
  type AdlineRequestError,
  type Advertisement,
  type FetchAdOptions,
} from './fetch-ad';
import { createRecordView, type ViewableAd } from './record-view';
import type { paths } from './schema';

export interface AdlineClientOptions {
  /** Where Adline answers, e.g. `https://ads.example.com`. */
  baseUrl: string;
  /** An AI model's API key (`adl_live_…` or `adl_test_…`), sent to fetch-ads only. */
  apiKey?: string;
  /** A sign-in's `access_token`, sent as `Authorization: Bearer …` to the publisher and operator routes. */
  token?: string;
  /** `fetchAd`'s timeout in milliseconds (default 800). */
  timeoutMs?: number;
  /** `fetchAd`'s circuit breaker (default: 5 consecutive failures open it for 30 seconds). */
  breaker?: CircuitBreakerOptions;
  /** Told about each failed fetch-ads request; `fetchAd` itself never throws. */
  onError?: (error: AdlineRequestError) => void;
  /** A fetch of your own (tests, proxies); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The typed openapi-fetch client of every route, plus `fetchAd`. */
export type AdlineClient = Client<paths> & {
  /**
   * The first ad for this conversation, or `null`: no match, and also any error, timeout or
   * open breaker. Never throws, never waits longer than the timeout.
   */
  fetchAd(options: FetchAdOptions): Promise<Advertisement | null>;
  /**
   * Records that the ad was seen: call it once the ad is on screen (it calls the ad's
   * `view_url`; no API key is sent, so it works from a browser too). Never throws: resolves
   * `true` once recorded, `false` on any failure. Counted once per ad however often called.
   */
  recordView(ad: ViewableAd | null | undefined): Promise<boolean>;
  /** Whether the breaker is skipping calls right now. */
  isBreakerOpen(): boolean;
};

const FETCH_ADS_PATH = '/api/fetch-ads';

/**
 * A client for Adline: `client.GET('/api/models')`, `client.POST('/api/admin/campaigns', …)`
 * with types generated from the OpenAPI document, `client.fetchAd(…)` for a publisher's
 * backend and `client.recordView(ad)` once the ad is on screen. Each client has its own
 * circuit breaker.
 */
export function createAdlineClient(options: AdlineClientOptions): AdlineClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(authentication(options));
  const breaker = new CircuitBreaker(options.breaker);
  const fetchAd = createFetchAd(client, breaker, {
    timeoutMs: options.timeoutMs,
    onError: options.onError,
  });
  const recordView = createRecordView(options.fetch ?? ((request) => fetch(request)));
  return Object.assign(client, { fetchAd, recordView, isBreakerOpen: () => breaker.isOpen });
}

/**
 * The API key goes to fetch-ads only and the bearer token everywhere else, so neither secret
 * travels where it is not needed (or lands in a log that records headers).
 */
function authentication({ apiKey, token }: AdlineClientOptions): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (schemaPath === FETCH_ADS_PATH) {
        if (apiKey !== undefined) request.headers.set('service-api-key', apiKey);
      } else if (token !== undefined) {
        request.headers.set('authorization', `Bearer ${token}`);
      }
      return request;
    },
  };
}
