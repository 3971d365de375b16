import { AdlineRequestError, createAdlineConversions, type Conversion } from '../src';

const KEY = 'adl_adv_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

const purchase = (eventId: string): Conversion => ({
  click_id: 'AZqKPlscfMGdDj8qG0xdbh8iTK2Yq1u6cTgS7Xc4lRw',
  event: 'purchase',
  event_id: eventId,
  occurred_at: '2026-11-21T12:00:00Z',
  value: 49.9,
  currency: 'USD',
});

/** A fetch that records its requests and answers with `answer` (or throws it). */
function fakeFetch(answer: Response | Error) {
  const requests: Request[] = [];
  const fetch = (request: Request) => {
    requests.push(request);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { requests, fetch };
}

describe('createAdlineConversions', () => {
  it('POSTs one conversion with the advertiser key and answers its result', async () => {
    const result = { event_id: 'order-1', status: 'accepted', conversion_id: 'c-1' };
    const { requests, fetch } = fakeFetch(Response.json({ results: [result] }));
    const conversions = createAdlineConversions({
      baseUrl: 'http://adline.test/',
      advertiserKey: KEY,
      fetch,
    });

    expect(await conversions.send(purchase('order-1'))).toEqual([result]);

    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', 'http://adline.test/api/conversions'],
    ]);
    expect(requests[0].headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(await requests[0].json()).toEqual(purchase('order-1'));
  });

  it('sends a list as one batch and answers each item in order', async () => {
    const results = [
      { event_id: 'a', status: 'accepted', conversion_id: 'c-1' },
      { event_id: 'b', status: 'rejected', code: 'click_not_found' },
    ];
    const { requests, fetch } = fakeFetch(Response.json({ results }));
    const conversions = createAdlineConversions({
      baseUrl: 'http://adline.test',
      advertiserKey: KEY,
      fetch,
    });

    expect(await conversions.send([purchase('a'), purchase('b')])).toEqual(results);
    expect(await requests[0].json()).toEqual({ conversions: [purchase('a'), purchase('b')] });
  });

  it.each([
    ['a 404 invalid_api_key', Response.json({ code: 'invalid_api_key' }, { status: 404 }), 404],
    ['a 429', Response.json({ code: 'rate_limited' }, { status: 429 }), 429],
    ['a network error', new TypeError('fetch failed'), undefined],
  ])('throws AdlineRequestError on %s, so the caller can send again', async (_, answer, status) => {
    const { fetch } = fakeFetch(answer);
    const conversions = createAdlineConversions({
      baseUrl: 'http://adline.test',
      advertiserKey: KEY,
      fetch,
    });
    const failure = conversions.send(purchase('x'));
    await expect(failure).rejects.toBeInstanceOf(AdlineRequestError);
    await expect(failure).rejects.toMatchObject({ status });
  });
});
