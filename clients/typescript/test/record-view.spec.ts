import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAdlineClient, type ViewableAd } from '../src';
import { adlineMiddleware } from '../src/ai-sdk';

const VIEW_URL = 'http://adline.test/api/ad-views/019a8a3e-2222-7cc1-9d0e-3f2a1b4c5d6e.sig';

/** A fetch that records its requests and answers `answer` (or throws it). */
function fakeFetch(answer: number | Error) {
  const requests: Request[] = [];
  const fetch = (request: Request) => {
    requests.push(request);
    return answer instanceof Error
      ? Promise.reject(answer)
      : Promise.resolve(new Response(null, { status: answer }));
  };
  return { requests, fetch };
}

describe('recordView', () => {
  it('POSTs to the ad’s view_url without credentials or API key, and resolves true on 204', async () => {
    const { requests, fetch } = fakeFetch(204);
    const client = createAdlineClient({ baseUrl: 'http://adline.test', apiKey: 'k', fetch });

    expect(await client.recordView({ view_url: VIEW_URL })).toBe(true);

    expect(requests.map((r) => [r.method, r.url])).toEqual([['POST', VIEW_URL]]);
    expect(requests[0].credentials).toBe('omit');
    expect(requests[0].headers.get('service-api-key')).toBeNull();
  });

  it.each([
    ['a 410 (too late)', fakeFetch(410)],
    ['a 429', fakeFetch(429)],
    ['a network error', fakeFetch(new TypeError('fetch failed'))],
  ])('never throws: resolves false on %s', async (_, { fetch }) => {
    const client = createAdlineClient({ baseUrl: 'http://adline.test', fetch });
    await expect(client.recordView({ view_url: VIEW_URL })).resolves.toBe(false);
  });

  it('resolves false without a call for no ad, or an ad without view_url', async () => {
    const { requests, fetch } = fakeFetch(204);
    const client = createAdlineClient({ baseUrl: 'http://adline.test', fetch });
    expect(await client.recordView(null)).toBe(false);
    expect(await client.recordView({})).toBe(false);
    expect(requests).toEqual([]);
  });
});

describe('adlineMiddleware and views', () => {
  it('tells onAd of the ad it appended, and records its view through recordView', async () => {
    const requests: Request[] = [];
    const fetch = (request: Request) => {
      requests.push(request);
      return Promise.resolve(
        request.url === VIEW_URL
          ? new Response(null, { status: 204 })
          : Response.json({
              advertisements: [
                { campaign_name: 'Boots', campaign_markdown: '\n\nAD', view_url: VIEW_URL },
              ],
            }),
      );
    };
    const client = createAdlineClient({ baseUrl: 'http://adline.test', apiKey: 'k', fetch });
    // Ads as the middleware hands them over (typed from openapi.json, view_url included).
    const seen: ViewableAd[] = [];
    const middleware = adlineMiddleware({
      client,
      keywords: 'boots',
      onAd: (ad) => seen.push(ad),
    });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({
        doGenerate: () =>
          Promise.resolve({
            content: [{ type: 'text', text: 'Reply.' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 1, text: 1, reasoning: undefined },
            },
            warnings: [],
          }),
      }),
      middleware,
    });

    const { text } = await generateText({ model, prompt: 'Boots?' });

    expect(text).toBe('Reply.\n\nAD');
    expect(seen.map((ad) => ad.view_url)).toEqual([VIEW_URL]);
    expect(await middleware.recordView(seen[0])).toBe(true);
    expect(requests.map((r) => r.url).at(-1)).toBe(VIEW_URL);
  });
});
