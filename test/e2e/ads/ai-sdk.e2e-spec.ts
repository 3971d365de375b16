import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { createAdlineClient } from '../../../clients/typescript/src';
import { adlineMiddleware } from '../../../clients/typescript/src/ai-sdk';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const REPLY = 'Pick boots with a waterproof membrane.';
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 8, text: 8, reasoning: 0 },
};
const stop = { unified: 'stop' as const, raw: undefined };

/** The SDK's own mock model: answers REPLY, generating and streaming; no network. */
const mockModel = () =>
  new MockLanguageModelV3({
    doGenerate: () =>
      Promise.resolve({
        content: [{ type: 'text', text: REPLY }],
        finishReason: stop,
        usage,
        warnings: [],
      }),
    doStream: () =>
      Promise.resolve({
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start' as const, warnings: [] },
            { type: 'text-start' as const, id: 't1' },
            { type: 'text-delta' as const, id: 't1', delta: 'Pick boots with ' },
            { type: 'text-delta' as const, id: 't1', delta: 'a waterproof membrane.' },
            { type: 'text-end' as const, id: 't1' },
            { type: 'finish' as const, finishReason: stop, usage },
          ],
        }),
      }),
  });

/**
 * The AI SDK middleware against the real service: the ad it appends is the one fetch-ads
 * serves for the prompt's conversation, with its tracking link, in both reply modes.
 */
describe(`the AI SDK middleware against the service (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.f.publisherWithKey());
    await t.f.campaign({ name: 'Trail boots', keywords: 'hiking boots', bid: '0.40' });
  });
  afterAll(() => t.close());

  const model = (keywords: string) =>
    wrapLanguageModel({
      model: mockModel(),
      middleware: adlineMiddleware({
        client: createAdlineClient({ baseUrl: t.baseUrl, apiKey: key }),
        keywords,
        timeoutMs: 3000,
      }),
    });
  const prompt = 'Which boots for a rainy hike in Scotland?';

  it('appends the served ad to generateText', async () => {
    const { text } = await generateText({ model: model('hiking boots'), prompt });
    expect(text.startsWith(REPLY)).toBe(true);
    expect(text).toContain('Trail boots');
    expect(text).toContain(`${t.baseUrl}/api/campaign_click?`);
  });

  it('appends the served ad after the last chunk of streamText', async () => {
    const result = streamText({ model: model('hiking boots'), prompt });
    let text = '';
    for await (const chunk of result.textStream) text += chunk;
    expect(text.startsWith(REPLY)).toBe(true);
    expect(text.slice(REPLY.length)).toContain('Trail boots');
  });

  it('leaves the reply as the model wrote it when no ad matches', async () => {
    const { text } = await generateText({ model: model('underwater basket weaving'), prompt });
    expect(text).toBe(REPLY);
  });
});
