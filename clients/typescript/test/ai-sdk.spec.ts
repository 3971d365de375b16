import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { adlineMiddleware } from '../src/ai-sdk';
import { createAdlineClient } from '../src';
import { AD_MARKDOWN, fakeAdline, type FakeAdline, type FakeAnswer } from './fake-adline';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};
const stop = { unified: 'stop' as const, raw: undefined };
const REPLY = 'Pick boots with a waterproof membrane.';
const TIMEOUT_MS = 300;

/** A model that answers REPLY after `delayMs`, both generating and streaming. */
function mockModel(
  delayMs = 0,
  finishReason: { unified: 'stop' | 'tool-calls'; raw: undefined } = stop,
) {
  const wait = () => new Promise((resolve) => setTimeout(resolve, delayMs));
  return new MockLanguageModelV3({
    doGenerate: async () => {
      await wait();
      return { content: [{ type: 'text', text: REPLY }], finishReason, usage, warnings: [] };
    },
    doStream: () =>
      Promise.resolve({
        stream: simulateReadableStream({
          initialDelayInMs: delayMs,
          chunkDelayInMs: null,
          chunks: [
            { type: 'stream-start' as const, warnings: [] },
            { type: 'text-start' as const, id: 't1' },
            { type: 'text-delta' as const, id: 't1', delta: 'Pick boots with ' },
            { type: 'text-delta' as const, id: 't1', delta: 'a waterproof membrane.' },
            { type: 'text-end' as const, id: 't1' },
            { type: 'finish' as const, finishReason, usage },
          ],
        }),
      }),
  });
}

function modelWithAd(answer: FakeAnswer, delayMs = 0) {
  const adline = fakeAdline(answer);
  const client = createAdlineClient({
    baseUrl: 'http://adline.test',
    apiKey: 'adl_test_key',
    fetch: adline.fetch,
  });
  const model = wrapLanguageModel({
    model: mockModel(delayMs),
    middleware: adlineMiddleware({ client, keywords: 'hiking boots', timeoutMs: TIMEOUT_MS }),
  });
  return { adline, model };
}

const prompt = 'Which boots for a rainy hike?';

describe('adlineMiddleware (AI SDK 6, mock model)', () => {
  it('generateText: appends the ad to the reply', async () => {
    const { model, adline } = modelWithAd({ ad: AD_MARKDOWN });
    const { text } = await generateText({ model, prompt });
    expect(text).toBe(REPLY + AD_MARKDOWN);
    expect(adline.headers[0].get('service-api-key')).toBe('adl_test_key');
    expect(adline.bodies[0]).toEqual({
      conversation: `user: ${prompt}`,
      context_keywords: 'hiking boots',
    });
  });

  it('streamText: the ad comes after the model’s last text chunk, as its own text block, before finish', async () => {
    const { model } = modelWithAd({ ad: AD_MARKDOWN });
    const result = streamText({ model, prompt });
    const parts: { type: string; text?: string }[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(await result.text).toBe(REPLY + AD_MARKDOWN);
    const types = parts.map((part) => part.type);
    const adDelta = parts.findIndex(
      (part) => part.type === 'text-delta' && part.text === AD_MARKDOWN,
    );
    const lastModelDelta = parts.findLastIndex(
      (part) => part.type === 'text-delta' && part.text === 'a waterproof membrane.',
    );
    expect(lastModelDelta).toBeGreaterThan(0);
    expect(adDelta).toBeGreaterThan(lastModelDelta);
    expect(types.slice(adDelta - 1, adDelta + 2)).toEqual(['text-start', 'text-delta', 'text-end']);
    expect(types.indexOf('finish-step')).toBeGreaterThan(adDelta);
  });

  it('asks for the ad while the model writes, not after it', async () => {
    const { model, adline } = modelWithAd({ ad: AD_MARKDOWN, afterMs: 200 }, 200);
    const started = performance.now();
    const { text } = await generateText({ model, prompt });
    const elapsed = performance.now() - started;
    expect(text).toBe(REPLY + AD_MARKDOWN);
    expect(adline.arrivals[0] - started).toBeLessThan(100);
    // In sequence it would take 400 ms or more.
    expect(elapsed).toBeLessThan(350);
  });

  describe.each<[string, FakeAnswer]>([
    ['an ad server that never answers', 'hang'],
    ['an ad later than the timeout', { ad: AD_MARKDOWN, afterMs: TIMEOUT_MS + 300 }],
    ['a 500', { status: 500, body: '{"code":"internal_error"}' }],
    ['no matching ad', { status: 404, body: '{"code":"no_matching_ad","reason":"no_match"}' }],
    ['a body that is not JSON', { status: 200, body: '<html>' }],
  ])('with %s', (_name, answer) => {
    it('generateText answers the reply unchanged, within the timeout', async () => {
      const { model } = modelWithAd(answer);
      const started = performance.now();
      const { text } = await generateText({ model, prompt });
      expect(text).toBe(REPLY);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 100);
    });

    it('streamText streams the reply unchanged, within the timeout', async () => {
      const { model } = modelWithAd(answer);
      const started = performance.now();
      const result = streamText({ model, prompt });
      expect(await result.text).toBe(REPLY);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 100);
    });
  });

  it('a slow model never waits for the ad: a late ad is simply left out', async () => {
    const { model } = modelWithAd('hang', TIMEOUT_MS + 100);
    const started = performance.now();
    const { text } = await generateText({ model, prompt });
    expect(text).toBe(REPLY);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('sends the prompt’s last messages as `role: text` lines, without the system prompt', async () => {
    const adline: FakeAdline = fakeAdline({ ad: AD_MARKDOWN });
    const seen: string[] = [];
    const model = wrapLanguageModel({
      model: mockModel(),
      middleware: adlineMiddleware({
        baseUrl: 'http://adline.test',
        apiKey: 'adl_test_key',
        fetch: adline.fetch,
        lastMessages: 3,
        keywords: (modelPrompt, conversation) => {
          seen.push(conversation);
          return modelPrompt.length > 1 ? ['boots', 'rain'] : '';
        },
        request: { locale: 'de', session_id: 'chat-42' },
      }),
    });
    await generateText({
      model,
      system: 'You are a helpful outdoor guide.',
      messages: [
        { role: 'user', content: 'Hi there!' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'user', content: [{ type: 'text', text: 'I hike in Scotland.' }] },
        { role: 'assistant', content: 'Lovely, and wet.' },
        { role: 'user', content: prompt },
      ],
    });
    const conversation = [
      'user: I hike in Scotland.',
      'assistant: Lovely, and wet.',
      `user: ${prompt}`,
    ].join('\n');
    expect(seen).toEqual([conversation]);
    expect(adline.bodies).toEqual([
      { conversation, context_keywords: 'boots, rain', locale: 'de', session_id: 'chat-42' },
    ]);
  });

  it('asks for no ad when the keywords come out empty', async () => {
    const adline = fakeAdline({ ad: AD_MARKDOWN });
    const model = wrapLanguageModel({
      model: mockModel(),
      middleware: adlineMiddleware({
        baseUrl: 'http://adline.test',
        fetch: adline.fetch,
        keywords: '',
      }),
    });
    expect((await generateText({ model, prompt })).text).toBe(REPLY);
    expect(adline.bodies).toHaveLength(0);
  });

  it('adds no ad to a step that ends in tool calls', async () => {
    const adline = fakeAdline({ ad: AD_MARKDOWN });
    const model = wrapLanguageModel({
      model: mockModel(0, { unified: 'tool-calls', raw: undefined }),
      middleware: adlineMiddleware({
        baseUrl: 'http://adline.test',
        fetch: adline.fetch,
        keywords: 'boots',
      }),
    });
    const result = streamText({ model, prompt });
    expect(await result.text).toBe(REPLY);
  });
});
