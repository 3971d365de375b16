import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '@/common/validation';
import { acceptFetchAdsRequest, FETCH_ADS_BODY_CHECK } from './fetch-ads-request.check';
import { FetchAdsRequestDto } from './fetch-ads-request.dto';

/**
 * The compiled check against the DTO's rules, over every combination of a few values per
 * field (valid ones, edge ones, wrong ones): whatever it accepts, the rules accept and make
 * into the same object; and it does accept the usual valid bodies (else it would save nothing).
 */

const METADATA: ArgumentMetadata = { type: 'body', metatype: FetchAdsRequestDto };
const rules = createValidationPipe();

async function byRules(body: unknown): Promise<FetchAdsRequestDto | null> {
  try {
    return (await rules.transform(body, METADATA)) as FetchAdsRequestDto;
  } catch {
    return null;
  }
}

const ABSENT = Symbol('absent');
const VALUES: Record<string, unknown[]> = {
  conversation: [ABSENT, null, 'Which laptop for ML?', '', '   ', 42, ['a'], 'x'.repeat(5000)],
  messages: [
    ABSENT,
    null,
    [{ role: 'user', content: 'hi' }],
    [
      { role: 'system', content: '' },
      { role: 'assistant', content: 'ok', extra: 1 },
    ],
    [],
    [{ role: 'robot', content: 'hi' }],
    [{ role: 'user' }],
    ['user: hi'],
    { role: 'user', content: 'hi' },
  ],
  context_keywords: [ABSENT, 'laptop, gpu', '', ' , ', 'é'.repeat(2000), 'a'.repeat(2001), 7],
  user_location: [ABSENT, null, 'Berlin, Germany', 'x'.repeat(256), 3],
  user_device_info: [ABSENT, 'mobile', 'x'.repeat(513)],
  locale: [ABSENT, null, 'de', 'zh-Hant-TW', 'de_DE', 'english', ''],
  explain: [ABSENT, true, false, 'true', 1],
  excluded_topics: [ABSENT, [], ['386'], ['386', 'nope'], '386', [386], Array(51).fill('386')],
  session_id: [ABSENT, 's-1', '', 'x'.repeat(129), 5],
  max_ads: [ABSENT, 1, 3, 0, 4, 2.5, '2'],
  moderation: [
    ABSENT,
    null,
    { flagged: true },
    { flagged: false, categories: { 'self-harm': false, violence: true } },
    { flagged: false, categories: {}, category_scores: { violence: 0.2 }, model: 'omni' },
    { flagged: 'true' },
    {},
    { flagged: false, categories: { violence: 'no' } },
    { flagged: false, categories: [true] },
    { flagged: false, category_scores: { violence: Infinity } },
    { flagged: false, categories: Object.fromEntries([...Array(101)].map((_, i) => [i, false])) },
    true,
    [{ flagged: true }],
  ],
  unknown_field: [ABSENT, 'dropped'],
};

/** Each field's values in turn on top of a valid body, and pairs of the first few fields. */
function* bodies(): Generator<Record<string, unknown>> {
  const base: Record<string, unknown> = {
    conversation: 'Which laptop?',
    context_keywords: 'laptop',
  };
  const fields = Object.keys(VALUES);
  const make = (changes: [string, unknown][]) => {
    const body = { ...base };
    for (const [field, value] of changes) {
      if (value === ABSENT) delete body[field];
      else body[field] = value;
    }
    return body;
  };
  for (const [i, a] of fields.entries()) {
    for (const va of VALUES[a]) {
      yield make([[a, va]]);
      for (const b of fields.slice(i + 1))
        for (const vb of VALUES[b])
          yield make([
            [a, va],
            [b, vb],
          ]);
    }
  }
}

describe('acceptFetchAdsRequest', () => {
  it('accepts only what the rules accept, and makes the same object of it', async () => {
    let accepted = 0;
    let total = 0;
    for (const body of bodies()) {
      total += 1;
      const fast = acceptFetchAdsRequest(body);
      if (!fast) continue;
      accepted += 1;
      const expected = await byRules(structuredClone(body));
      expect({ body, result: expected }).toStrictEqual({ body, result: fast });
    }
    expect(total).toBeGreaterThan(1_500);
    expect(accepted).toBeGreaterThan(200);
  });

  it.each([
    { conversation: 'Which laptop?', context_keywords: 'laptop' },
    {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Which laptop?' },
      ],
      context_keywords: 'laptop, gpu',
      user_location: 'DE',
      locale: 'de-DE',
      explain: true,
      excluded_topics: ['386'],
      session_id: 'c0nv',
      max_ads: 2,
    },
  ])('accepts a usual valid body without the full validation (%#)', async (body) => {
    const fast = acceptFetchAdsRequest(body);
    expect(fast).toBeInstanceOf(FetchAdsRequestDto);
    expect(fast).toStrictEqual(await byRules(body));
  });

  it('is what the pipe made with it uses; errors still come from the rules', async () => {
    const pipe = createValidationPipe([FETCH_ADS_BODY_CHECK]);
    const body = { conversation: 'hi', context_keywords: 'laptop', unknown_field: 1 };
    const made = await pipe.transform(body, METADATA);
    expect(made).toStrictEqual(acceptFetchAdsRequest(body));
    await expect(pipe.transform({ conversation: 'hi' }, METADATA)).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
