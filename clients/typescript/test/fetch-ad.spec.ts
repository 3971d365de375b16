import { createAdlineClient, type AdlineRequestError } from '../src';
import { AD_MARKDOWN, fakeAdline, type FakeAnswer } from './fake-adline';

const ask = { conversation: 'user: boots for a rainy hike?', keywords: 'hiking boots' };

function clientFor(answer: FakeAnswer, errors: AdlineRequestError[] = []) {
  const adline = fakeAdline(answer);
  const client = createAdlineClient({
    baseUrl: 'http://adline.test/',
    apiKey: 'adl_test_key',
    token: 'session-token',
    timeoutMs: 200,
    onError: (error) => errors.push(error),
    fetch: adline.fetch,
  });
  return { adline, client };
}

describe('fetchAd (fake fetch)', () => {
  it('answers the first ad, sending the API key and no bearer token to fetch-ads', async () => {
    const { adline, client } = clientFor({ ad: AD_MARKDOWN });
    expect((await client.fetchAd(ask))?.campaign_markdown).toBe(AD_MARKDOWN);
    expect(adline.headers[0].get('service-api-key')).toBe('adl_test_key');
    expect(adline.headers[0].get('authorization')).toBeNull();
  });

  it.each<[string, FakeAnswer]>([
    ['a body that is not JSON', { status: 200, body: 'this is not json' }],
    ['a body without advertisements', { status: 200, body: '{"ads":[]}' }],
    ['an ad without Markdown', { status: 200, body: '{"advertisements":[{"campaign_name":"x"}]}' }],
    ['a 503', { status: 503, body: '{"code":"not_ready"}' }],
    ['a 429', { status: 429, body: '{"code":"rate_limited"}' }],
  ])('answers null for %s and reports it to onError', async (_name, answer) => {
    const errors: AdlineRequestError[] = [];
    const { client } = clientFor(answer, errors);
    expect(await client.fetchAd(ask)).toBeNull();
    expect(errors).toHaveLength(1);
  });

  it('answers null for a network error', async () => {
    const errors: AdlineRequestError[] = [];
    const client = createAdlineClient({
      baseUrl: 'http://adline.test',
      onError: (error) => errors.push(error),
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    expect(await client.fetchAd(ask)).toBeNull();
    expect(errors[0].cause).toBeInstanceOf(TypeError);
  });

  it('answers null by the timeout even when the fetch ignores the abort signal', async () => {
    const client = createAdlineClient({
      baseUrl: 'http://adline.test',
      timeoutMs: 100,
      fetch: () => new Promise<Response>(() => {}),
    });
    const started = performance.now();
    expect(await client.fetchAd(ask)).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('never throws, not even when onError does', async () => {
    const client = createAdlineClient({
      baseUrl: 'http://adline.test',
      onError: () => {
        throw new Error('a logger that fails');
      },
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(client.fetchAd(ask)).resolves.toBeNull();
  });

  it('asks nothing without keywords', async () => {
    const { adline, client } = clientFor({ ad: AD_MARKDOWN });
    expect(await client.fetchAd({ conversation: 'hello', keywords: [] })).toBeNull();
    expect(await client.fetchAd({ conversation: 'hello', keywords: '  ' })).toBeNull();
    expect(adline.bodies).toHaveLength(0);
  });

  it('sends the bearer token, not the API key, to the other routes', async () => {
    const { adline, client } = clientFor({ status: 200, body: '[]' });
    await client.GET('/api/models');
    expect(adline.headers[0].get('authorization')).toBe('Bearer session-token');
    expect(adline.headers[0].get('service-api-key')).toBeNull();
  });
});
