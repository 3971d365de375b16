import type { Request } from 'autocannon';
import { generateRequest, vocabularyFor } from './data';
import { SERVICE_PORT } from './options';

/** The requests autocannon sends to the service: fetch-ads, and clicks on the links it served. */

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** fetch-ads requests; `links` collects the campaign links of their answers as they come. */
export function fetchRequests(
  campaigns: number,
  keys: string[],
): { requests: Request[]; links: string[] } {
  const vocabulary = vocabularyFor(campaigns);
  const links: string[] = [];
  const origin = `http://127.0.0.1:${SERVICE_PORT}`;
  const onResponse = (status: number, body: string) => {
    if (status !== 200 || links.length >= 2_000_000) return;
    const start = body.indexOf('"campaign_link":"');
    if (start < 0) return;
    const from = start + '"campaign_link":"'.length;
    links.push(body.slice(from + origin.length, body.indexOf('"', from)));
  };
  const requests: Request[] = Array.from({ length: 200 }, (_, i) => ({
    method: 'POST',
    path: '/api/fetch-ads',
    headers: { 'content-type': 'application/json', 'service-api-key': keys[i % keys.length] },
    body: JSON.stringify(generateRequest(vocabulary, i)),
    onResponse,
  }));
  return { requests, links };
}

/** Follows the harvested links in turn; `used` says how many it has sent. */
export function clickRequests(links: string[]): { requests: Request[]; used: () => number } {
  let next = 0;
  const requests: Request[] = [
    {
      method: 'GET',
      headers: { 'user-agent': BROWSER_UA },
      setupRequest: (request) => ({ ...request, path: links[next++ % links.length] }),
    },
  ];
  return { requests, used: () => next };
}
