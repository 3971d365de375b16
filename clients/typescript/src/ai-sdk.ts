import type { LanguageModelMiddleware } from 'ai';
import { createAdlineClient, type AdlineClient, type AdlineClientOptions } from './client';
import { formatConversation, type ConversationMessage } from './conversation';
import type { Advertisement, FetchAdOptions } from './fetch-ad';

// The language-model (v3) shapes, read off the middleware type so that `ai` is the only
// package this file needs.
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type CallOptions = Parameters<WrapGenerate>[0]['params'];
/** The prompt the model is called with (`LanguageModelV3Prompt`). */
export type ModelPrompt = CallOptions['prompt'];
type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
type StreamPart =
  Awaited<ReturnType<WrapStream>>['stream'] extends ReadableStream<infer Part> ? Part : never;
type FinishReason = GenerateResult['finishReason'];

type Keywords = string | readonly string[];

/** fetch-ads fields beside the conversation and keywords: `locale`, `session_id`, … */
export type AdRequestFields = Omit<
  FetchAdOptions,
  'conversation' | 'messages' | 'lastMessages' | 'keywords' | 'timeoutMs'
>;

export type AdlineMiddlewareOptions = ({ client: AdlineClient } | AdlineClientOptions) & {
  /**
   * The keywords to match ads against: a string (or list), or a function of the prompt and
   * the conversation text sent with it. Empty keywords ask for no ad.
   */
  keywords:
    Keywords | ((prompt: ModelPrompt, conversation: string) => Keywords | Promise<Keywords>);
  /** How many of the prompt's last messages to send as the conversation (default 6). */
  lastMessages?: number;
  /**
   * Longest wait for the ad, in milliseconds from the start of the model call (default 800).
   * A model that takes longer never waits for the ad at all.
   */
  timeoutMs?: number;
  /** Other fetch-ads fields, fixed or per call (e.g. the reader's `locale`). */
  request?: AdRequestFields | ((prompt: ModelPrompt) => AdRequestFields);
  /**
   * Your moderation model's verdict on the prompt (e.g. OpenAI's `results[0]`), sent as
   * fetch-ads' `moderation`: a flagged turn gets no ad. Runs inside the ad's deadline; a
   * failure asks for no ad.
   */
  moderation?: (
    prompt: ModelPrompt,
    conversation: string,
  ) => Moderation | null | undefined | Promise<Moderation | null | undefined>;
  /**
   * Told of each ad appended to a reply, e.g. to pass its `view_url` to the page showing the
   * reply, which calls it (or `recordView(ad)`) once the ad is on screen.
   */
  onAd?: (ad: Advertisement) => void;
};

/** The middleware, with its client's `recordView(ad)` for the ads it appended. */
export type AdlineMiddleware = LanguageModelMiddleware & Pick<AdlineClient, 'recordView'>;

/** A moderation result as fetch-ads takes it: `flagged`, `categories`, `category_scores`. */
export type Moderation = NonNullable<AdRequestFields['moderation']>;

/**
 * AI SDK middleware that asks Adline for an ad while the model writes its reply, and
 * appends the ad's `campaign_markdown` to the reply: to the last text of `generateText`, and
 * as a last text block, just before `finish`, of `streamText`. No ad, a failure or an ad
 * later than `timeoutMs` leaves the reply exactly as the model wrote it.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: adlineMiddleware({ … }) });
 * ```
 *
 * `onAd` is told of each ad appended, and `middleware.recordView(ad)` records that it was
 * seen (never throws).
 */
export function adlineMiddleware(options: AdlineMiddlewareOptions): AdlineMiddleware {
  // One client for every call, so its circuit breaker sees them all.
  const client = 'client' in options ? options.client : createAdlineClient(options);
  const timeoutMs = options.timeoutMs ?? 800;

  const adFor = (params: CallOptions): Promise<Advertisement | null> =>
    withDeadline(timeoutMs, async (remainingMs) => {
      const conversation = formatConversation(
        textMessagesOf(params.prompt),
        options.lastMessages ?? 6,
      );
      const keywords =
        typeof options.keywords === 'function'
          ? await options.keywords(params.prompt, conversation)
          : options.keywords;
      const fields =
        typeof options.request === 'function' ? options.request(params.prompt) : options.request;
      const moderation = (await options.moderation?.(params.prompt, conversation)) ?? undefined;
      return client.fetchAd({
        ...fields,
        ...(moderation ? { moderation } : {}),
        conversation,
        keywords,
        timeoutMs: remainingMs(),
      });
    });

  /** The ad's Markdown, once the ad is sure to be appended (and `onAd` told of it). */
  const appended = (ad: Advertisement) => {
    try {
      options.onAd?.(ad);
    } catch {
      // The publisher's callback never costs the reply its ad, nor the reply itself.
    }
    return ad.campaign_markdown;
  };

  return {
    specificationVersion: 'v3',
    recordView: (ad) => client.recordView(ad),

    async wrapGenerate({ doGenerate, params }) {
      const ad = adFor(params); // in parallel with the model, not after it
      const result = await doGenerate();
      const served = await ad;
      if (!served?.campaign_markdown || !endsTheReply(result.finishReason)) return result;
      const lastText = result.content.findLastIndex((part) => part.type === 'text');
      if (lastText < 0) return result;
      const markdown = appended(served);
      return {
        ...result,
        content: result.content.map((part, index) =>
          index === lastText && part.type === 'text'
            ? { ...part, text: part.text + markdown }
            : part,
        ),
      };
    },

    async wrapStream({ doStream, params }) {
      const ad = adFor(params);
      const { stream, ...rest } = await doStream();
      let wroteText = false;
      const appendAd = new TransformStream<StreamPart, StreamPart>({
        async transform(part, controller) {
          if (part.type === 'text-delta' && part.delta !== '') wroteText = true;
          if (part.type === 'finish' && wroteText && endsTheReply(part.finishReason)) {
            const served = await ad;
            if (served?.campaign_markdown) {
              const markdown = appended(served);
              // A text block of its own: every text-delta belongs to a started block.
              const id = 'adline-ad';
              controller.enqueue({ type: 'text-start', id });
              controller.enqueue({ type: 'text-delta', id, delta: markdown });
              controller.enqueue({ type: 'text-end', id });
            }
          }
          controller.enqueue(part);
        },
      });
      return { stream: stream.pipeThrough(appendAd), ...rest };
    },
  };
}

/**
 * An ad belongs after a finished answer, not after a step that hands over to tools, an
 * error or a filtered reply.
 */
function endsTheReply(finishReason: FinishReason): boolean {
  return finishReason.unified === 'stop' || finishReason.unified === 'length';
}

/**
 * The prompt's user and assistant messages as text (text parts joined). System messages
 * stay out: they are the publisher's instructions, not the conversation.
 */
function textMessagesOf(prompt: ModelPrompt): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (const message of prompt) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .filter((text) => text !== '')
      .join(' ');
    messages.push({ role: message.role, content: text });
  }
  return messages;
}

/**
 * `work`'s answer, or `null` once `ms` have passed or if it throws: whatever the keywords
 * function or the network does, the reply waits at most `ms` for its ad.
 */
async function withDeadline<T>(
  ms: number,
  work: (remainingMs: () => number) => Promise<T | null>,
): Promise<T | null> {
  const deadline = Date.now() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([
      work(() => Math.max(1, deadline - Date.now())).catch(() => null),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
