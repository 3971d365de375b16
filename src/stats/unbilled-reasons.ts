/** What a publisher reads about one reason a click was not billed. */
export interface UnbilledReasonText {
  title: string;
  meaning: string;
  what_to_do: string;
}

/**
 * Every reason a recorded click can go unbilled for, in the order reports list them, with
 * the one text the API and the dashboard show for it. Stats may not import tracking, where
 * the click judge's `InvalidClickReason` lives, so test/e2e/publishers/unbilled-clicks
 * checks at compile time that this list names every one of those reasons, and no other.
 */
export const UNBILLED_REASON_TEXTS = {
  bad_signature: {
    title: 'Altered link',
    meaning:
      'The link was changed or made up: its signature does not match. It names no ad of yours, so it never shows in your statistics.',
    what_to_do:
      'Pass `campaign_link` to your users exactly as fetch-ads returned it, without editing or rebuilding it.',
  },
  unknown_impression: {
    title: 'Unknown ad',
    meaning:
      'The link names an ad that was never served. It names no ad of yours, so it never shows in your statistics.',
    what_to_do: 'Use only links that fetch-ads returned.',
  },
  mismatch: {
    title: 'Link of another ad',
    meaning: 'The link’s campaign or model is not the one its ad was served for.',
    what_to_do: 'Show each ad with its own `campaign_link`, unchanged.',
  },
  duplicate: {
    title: 'Clicked again',
    meaning:
      'This ad had already been clicked: each ad shown is paid for once, at its first click.',
    what_to_do: 'Nothing: a person clicking twice is normal, and the first click was counted.',
  },
  expired: {
    title: 'Clicked too late',
    meaning: 'The click came longer after the ad was shown than a click is counted for.',
    what_to_do:
      'Fetch a fresh ad for each answer instead of reusing an old link, for example in a saved conversation.',
  },
  bot: {
    title: 'Not a person’s browser',
    meaning:
      'Following your own ad’s link with curl or a script is not counted: only a person in a browser is. The same goes for crawlers, link previews, headless browsers and requests without a user agent.',
    what_to_do:
      'Do not open or test ad links with scripts or tools; to check that a link works, use a test key (`adl_test_…`).',
  },
  head_request: {
    title: 'Link checked, not followed',
    meaning: 'A program asked whether the link exists (a HEAD request) without opening it.',
    what_to_do:
      'Nothing, unless your app checks links itself: then leave ad links out of that check.',
  },
  prefetch: {
    title: 'Loaded in advance',
    meaning:
      'A browser or app loaded the link ahead of time (prefetch or prerender), before anyone clicked.',
    what_to_do: 'Leave ad links out of any link prefetching or previews your app does.',
  },
  too_fast: {
    title: 'Clicked too fast',
    meaning: 'The click came sooner after the ad was shown than a person reads and clicks.',
    what_to_do: 'Never open ad links automatically; let your users click them.',
  },
  ip_limit: {
    title: 'Too many clicks from one network',
    meaning:
      'This network had already made as many paid clicks as are counted for now (per campaign a minute, per hour and per day).',
    what_to_do:
      'Nothing if it is rare. Many of these mean one place clicks a lot of ads: look for automated traffic.',
  },
  publisher_suspended: {
    title: 'Account suspended',
    meaning: 'Your account was suspended when the click came, so it earns nothing.',
    what_to_do: 'Contact the operator of this service.',
  },
  model_inactive: {
    title: 'Model switched off',
    meaning: 'The AI model that showed the ad was deactivated when the click came.',
    what_to_do: 'Reactivate the model if you still use it.',
  },
  key_revoked: {
    title: 'Key revoked',
    meaning: 'The API key that fetched the ad was revoked before the click came.',
    what_to_do: 'Nothing: clicks on ads fetched with your current keys are counted.',
  },
  campaign_inactive: {
    title: 'Campaign ended',
    meaning: 'The advertiser paused or ended the campaign between the ad being shown and clicked.',
    what_to_do: 'Nothing: the campaign is no longer served.',
  },
  test: {
    title: 'Test key',
    meaning:
      'The ad was fetched with a test key (`adl_test_…`): its clicks are never paid. They show as `test_clicks` in your statistics, not among the unbilled clicks.',
    what_to_do: 'Use a live key (`adl_live_…`) in production.',
  },
  over_budget: {
    title: 'Advertiser’s budget spent',
    meaning:
      'A valid click that the campaign’s budget could no longer pay; the campaign stopped being served at once.',
    what_to_do: 'Nothing: this is not about your traffic.',
  },
  unrecorded: {
    title: 'Reason not kept',
    meaning: 'An unbilled click counted before the service kept reasons.',
    what_to_do: 'Nothing.',
  },
} as const satisfies Record<string, UnbilledReasonText>;

export type UnbilledReason = keyof typeof UNBILLED_REASON_TEXTS;

export const UNBILLED_REASONS = Object.keys(UNBILLED_REASON_TEXTS) as UnbilledReason[];

/** The reasons' order; one not in the list (none should be) comes last, by name. */
export function reasonRank(reason: string): number {
  const rank = UNBILLED_REASONS.indexOf(reason as UnbilledReason);
  return rank === -1 ? UNBILLED_REASONS.length : rank;
}
