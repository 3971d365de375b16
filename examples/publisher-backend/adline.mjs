// The pieces of a publisher backend that talk to Adline. The client (@adline/client) does the
// fail-safe part: fetchAd() answers the first ad or null, never throws, gives up after its
// timeout and stops asking for a while when Adline keeps failing (a circuit breaker).
import { createAdlineClient } from '@adline/client';

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
 * @returns keywords, e.g. ['gpu', 'rent', 'train', 'model']; [] when none remain.
 */
export function extractKeywords(message, max = 8) {
  const words = String(message)
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));
  return [...new Set(words)].slice(0, max);
}

/**
 * One client for the life of the process: its circuit breaker lives in it. Call Adline from
 * the backend only, never from the browser: the API key must stay secret.
 */
export function createAdline({ url, apiKey, timeoutMs = 800, onError }) {
  return createAdlineClient({ baseUrl: url, apiKey, timeoutMs, onError });
}

/**
 * Starts the ad request for a chat at once, so that it runs while the model writes. The
 * keywords come from the user's last message; the recent messages go as the conversation.
 * @returns a promise of the ad's Markdown, '' when there is none (never rejects).
 */
export function startAdRequest(adline, messages, userDeviceInfo) {
  const lastUserMessage = messages.findLast((message) => message.role === 'user');
  return adline
    .fetchAd({
      messages,
      keywords: extractKeywords(lastUserMessage?.content ?? ''),
      ...(userDeviceInfo ? { user_device_info: userDeviceInfo } : {}),
    })
    .then((ad) => ad?.campaign_markdown ?? '');
}

/** The whole reply with the ad appended: the ad was asked for before the model started. */
export async function replyWithAd(adline, messages, generateReply, userDeviceInfo) {
  const [reply, adMarkdown] = await Promise.all([
    generateReply(messages),
    startAdRequest(adline, messages, userDeviceInfo),
  ]);
  return reply + adMarkdown;
}

/**
 * The model's text chunks as they come, then the ad's Markdown as one last chunk when there
 * is one. The ad request started before the first chunk, so it is usually there by the end.
 */
export async function* streamWithAd(adline, messages, streamReply, userDeviceInfo) {
  const adMarkdown = startAdRequest(adline, messages, userDeviceInfo);
  yield* streamReply(messages);
  const markdown = await adMarkdown;
  if (markdown) yield markdown;
}
