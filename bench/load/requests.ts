import type { Request } from 'autocannon';
import { generateRequest, vocabularyFor } from '../seed/generate';
import { benchmarkAddress } from './addresses';
import { campaignLinkOf, viewUrlOf } from './links';
import type { RequestSpec } from './open-loop';

/**
 * The requests the load generators send to the service: fetch-ads, clicks on the links it
 * served, views of its ads and conversions of its billed clicks; plain (RequestSpec) for the open-loop generator's process, or autocannon's.
 */

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** 200 fetch-ads requests of about 1 KB, each with one of the models' keys. */
export function fetchSpecs(campaigns: number, keys: string[]): RequestSpec[] {
  const vocabulary = vocabularyFor(campaigns);
  return Array.from({ length: 200 }, (_, i) => ({
    method: 'POST',
    path: '/api/fetch-ads',
    headers: { 'content-type': 'application/json', 'service-api-key': keys[i % keys.length] },
    body: JSON.stringify(generateRequest(vocabulary, i)),
  }));
}

/**
 * fetch-ads requests for autocannon; `links` collects the campaign links of their answers as
 * they come (the closed-loop click phase follows them), `views` their view URLs (the view
 * phase calls them).
 */
export function fetchRequests(
  campaigns: number,
  keys: string[],
): { requests: Request[]; links: string[]; views: string[] } {
  const links: string[] = [];
  const views: string[] = [];
  const onResponse = (status: number, body: string) => {
    if (status !== 200 || links.length >= 2_000_000) return;
    const link = campaignLinkOf(body);
    if (link !== null) links.push(link);
    const view = viewUrlOf(body);
    if (view !== null) views.push(view);
  };
  const requests: Request[] = fetchSpecs(campaigns, keys).map((spec) => ({
    ...spec,
    method: 'POST',
    onResponse,
  }));
  return { requests, links, views };
}

/**
 * Calls the harvested view URLs in turn (a `POST`, as a page does), each from its own
 * address (the route is rate limited per client IP); `used` says how many it has sent.
 */
export function viewRequests(views: string[]): { requests: Request[]; used: () => number } {
  let next = 0;
  const requests: Request[] = [
    {
      method: 'POST',
      setupRequest: (request) => {
        const index = next++;
        return {
          ...request,
          path: views[index % views.length],
          headers: { ...request.headers, 'x-forwarded-for': benchmarkAddress(index) },
        };
      },
    },
  ];
  return { requests, used: () => next };
}

/** A conversion request's answers, as counted so far: items accepted and the rest. */
export interface ConversionCounts {
  accepted: number;
  /** Items answered `duplicate` or `rejected`: none is expected. */
  notAccepted: number;
}

const ACCEPTED = '"status":"accepted"';
const NOT_ACCEPTED = ['"status":"duplicate"', '"status":"rejected"'];

/**
 * `POST /api/conversions` with the advertiser's key: `batch` conversions a request (one
 * conversion alone, or `{ conversions: [...] }`), the click ids taken in turn, each with an
 * event id of its own (`prefix` and a counter), so that every item is accepted once;
 * `counts` says how the answers' items went.
 */
export function conversionRequests(
  clickIds: string[],
  advertiserKey: string,
  batch: number,
  prefix: string,
): { requests: Request[]; counts: () => ConversionCounts } {
  let next = 0;
  const counts: ConversionCounts = { accepted: 0, notAccepted: 0 };
  const item = (occurredAt: string) => {
    const index = next++;
    return `{"click_id":"${clickIds[index % clickIds.length]}","event":"purchase","event_id":"${prefix}-${index}","occurred_at":"${occurredAt}","value":49.9,"currency":"USD"}`;
  };
  const requests: Request[] = [
    {
      method: 'POST',
      path: '/api/conversions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${advertiserKey}` },
      setupRequest: (request) => {
        const occurredAt = new Date().toISOString();
        const body =
          batch === 1
            ? item(occurredAt)
            : `{"conversions":[${Array.from({ length: batch }, () => item(occurredAt)).join(',')}]}`;
        return { ...request, body };
      },
      // Counted by string search, as the links are found: the answers are being timed.
      onResponse: (status, body) => {
        if (status !== 200) return;
        counts.accepted += occurrences(body, ACCEPTED);
        for (const other of NOT_ACCEPTED) counts.notAccepted += occurrences(body, other);
      },
    },
  ];
  return { requests, counts: () => ({ ...counts }) };
}

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

/** Follows the harvested links in turn; `used` says how many it has sent. */
export function clickRequests(links: string[]): { requests: Request[]; used: () => number } {
  let next = 0;
  const requests: Request[] = [
    {
      method: 'GET',
      headers: { 'user-agent': BROWSER_UA },
      // Each click from its own visitor, as real traffic comes: all from one address, every
      // batch would wait on the per-address click rules' locking read of that address.
      setupRequest: (request) => {
        const index = next++;
        return {
          ...request,
          path: links[index % links.length],
          headers: { ...request.headers, 'x-forwarded-for': benchmarkAddress(index) },
        };
      },
    },
  ];
  return { requests, used: () => next };
}

/** A browser's follow of each link, once each, for the open-loop generator. */
export function clickSpecs(links: string[]): RequestSpec[] {
  return links.map((path) => ({ method: 'GET', path, headers: { 'user-agent': BROWSER_UA } }));
}
