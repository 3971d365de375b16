// The pieces of a publisher backend that talk to Adline, kept pure so they can be tested
// without a network. No dependencies: Node.js 20's global fetch and AbortSignal.timeout.

const STOP_WORDS = new Set(
  (
    'a about after all also am an and any are as at be because been but by can could did do ' +
    'does for from get got had has have he her here him his how i if in into is it its just ' +
    'like me more most my no not now of on or our out should so some than that the their them ' +
    'then there these they this to too up us use very want was we were what when where which ' +
    'who why will with would you your'
  ).split(' '),
);

/**
 * Naive keyword extraction: the distinct words of the message, lower-cased, without stop
 * words or very short words, in order of appearance. A real backend might ask its model.
 * @returns comma-separated keywords, e.g. "gpu, rent, train, model"; '' when none remain.
 */
export function extractKeywords(message, max = 8) {
  const words = String(message)
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));
  return [...new Set(words)].slice(0, max).join(', ');
}

/**
 * A function that asks Adline for an ad (`POST /api/fetch-ads`) from the backend, never from
 * the browser: the API key must stay secret.
 * @returns the response body `{ advertisements }`, or null when no ad matches.
 * @throws on a timeout, a network error or any error status, so that the caller can log it.
 */
export function createFetchAds({ url, apiKey, timeoutMs = 800 }) {
  const endpoint = `${url.replace(/\/+$/, '')}/api/fetch-ads`;
  return async function fetchAds({ conversation, keywords, userDeviceInfo }) {
    // Adline answers 400 without keywords; there is no ad to show for such a message anyway.
    if (!keywords) return null;
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-api-key': apiKey },
      body: JSON.stringify({
        conversation,
        context_keywords: keywords,
        ...(userDeviceInfo ? { user_device_info: userDeviceInfo } : {}),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.ok) return response.json();
    // Errors are problem details with a stable `code` (invalid_api_key, rate_limited, ...).
    const problem = await response.json().catch(() => ({}));
    if (problem.code === 'no_matching_ad') return null;
    throw new Error(`Adline answered ${response.status} ${problem.code ?? ''}`.trim());
  };
}

/**
 * The AI reply with the first ad's Markdown appended; the reply alone when there is no ad or
 * anything goes wrong. An ad must never cost the user their answer.
 */
export async function withAd(reply, fetchAds, onError = () => {}) {
  try {
    const markdown = (await fetchAds())?.advertisements?.[0]?.campaign_markdown;
    return typeof markdown === 'string' ? reply + markdown : reply;
  } catch (error) {
    onError(error);
    return reply;
  }
}
