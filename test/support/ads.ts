import { Impression } from '@/tracking/entities/impression.entity';
import type { TestApp } from './test-app';

/** A desktop browser's user agent: a click with it is billed (no user agent counts as a bot). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A fetch-ads body asking for ads about `keywords`. */
export const ask = (keywords: string) => ({
  conversation: 'Any advice on this?',
  context_keywords: keywords,
});

/** The tracking link of a fetch-ads answer. */
export async function campaignLink(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { advertisements: { campaign_link: string }[] };
  return body.advertisements[0].campaign_link;
}

/** Follows a tracking link with this user agent (`null`: none), without following the redirect. */
export const followWith = (link: string, userAgent: string | null): Promise<Response> =>
  fetch(link, {
    redirect: 'manual',
    headers: userAgent === null ? {} : { 'user-agent': userAgent },
  });

/** Follows a tracking link as a person's browser would, without following the redirect. */
export const followAsBrowser = (link: string): Promise<Response> => followWith(link, BROWSER_UA);

/** A fetch-ads body: a programmer asking about a laptop, with ads wanted about `keywords`. */
export const laptopChat = (keywords: string, extra: Record<string, unknown> = {}) => ({
  conversation: 'I need a new laptop for programming, any advice?',
  context_keywords: keywords,
  ...extra,
});

/** How many impressions the model has recorded. */
export const impressionsOf = (t: TestApp, modelId: string): Promise<number> =>
  t.dataSource.getRepository(Impression).countBy({ modelId });

/**
 * A redirect's location without the click id the click endpoint adds (`adl_click`, the
 * default `click_id_param`): the campaign's target URL as it was stored.
 */
export function withoutClickId(location: string | null, param = 'adl_click'): string | null {
  if (location === null) return null;
  return location.replace(new RegExp(`([?&])${param}=[^&#]*&?`), '$1').replace(/[?&](#|$)/, '$1');
}
