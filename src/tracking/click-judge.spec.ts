import {
  type BatchFacts,
  type ClickRules,
  type FollowedLink,
  judgeClicks,
  mayBill,
} from './click-judge';
import type { Impression } from './entities/impression.entity';

const SERVED = new Date('2026-03-01T12:00:00.000Z');
const RULES: ClickRules = {
  windowMs: 86_400_000,
  minMs: 1_000,
  ipLimits: { perCampaignMinute: 1, perHour: 2, perDay: 25 },
};

const impression = (id: string, campaignId: string): Impression =>
  ({
    id,
    createdAt: SERVED,
    modelId: 'model',
    publisherId: 'publisher',
    campaignId,
    apiKeyId: null,
    bidMicros: 100_000,
    clickedAt: null,
  }) as Impression;

/** A person's follow from `ip`, `seconds` after the ads were served. */
const follow = (id: string, campaignId: string, ip: string, seconds: number): FollowedLink => ({
  clickId: id,
  at: new Date(SERVED.getTime() + seconds * 1000),
  campaignId,
  modelId: 'model',
  impressionId: id,
  userAgent: 'Mozilla/5.0 Chrome/126.0',
  intent: 'follow',
  ipHash: ip,
});

const factsOf = (links: FollowedLink[]): BatchFacts => ({
  impressions: new Map(
    links.map((l) => [l.impressionId!, impression(l.impressionId!, l.campaignId)]),
  ),
  standing: { suspendedPublishers: new Set(), inactiveModels: new Set(), revokedKeys: new Set() },
  billedByIp: [],
});

describe('judgeClicks: per-IP limits within one batch', () => {
  it('counts a valid click against its IP, so the next one on the campaign is over the limit', () => {
    const links = [
      follow('a', 'c1', 'ip', 5),
      follow('b', 'c1', 'ip', 6),
      follow('c', 'c1', 'other', 7),
    ];

    expect(judgeClicks(links, factsOf(links), RULES)).toEqual(['valid', 'ip_limit', 'valid']);
  });

  it('does not count a valid click that went unbilled: the click after it is valid when judged again', () => {
    const links = [
      follow('a', 'c1', 'ip', 5),
      follow('b', 'c1', 'ip', 6),
      follow('c', 'c1', 'ip', 7),
    ];

    // a could not be paid (over budget, or its campaign paused): it uses up no allowance,
    // so b takes the minute's one billed click and c is over the limit.
    expect(judgeClicks(links, factsOf(links), RULES, new Set(['a']))).toEqual([
      'valid',
      'valid',
      'ip_limit',
    ]);
  });

  it('applies the same rule to the hourly limit across campaigns', () => {
    const links = [
      follow('a', 'c1', 'ip', 5),
      follow('b', 'c2', 'ip', 6),
      follow('c', 'c3', 'ip', 7),
      follow('d', 'c4', 'ip', 8),
    ];
    const facts = factsOf(links);

    expect(judgeClicks(links, facts, RULES)).toEqual(['valid', 'valid', 'ip_limit', 'ip_limit']);
    expect(judgeClicks(links, facts, RULES, new Set(['b']))).toEqual([
      'valid',
      'valid',
      'valid',
      'ip_limit',
    ]);
  });

  it('counts the IP’s billed clicks of earlier batches', () => {
    const links = [follow('a', 'c1', 'ip', 5), follow('b', 'c2', 'ip', 6)];
    const facts = {
      ...factsOf(links),
      billedByIp: [{ ipHash: 'ip', campaignId: 'c1', at: new Date(SERVED.getTime() + 1_000) }],
    };

    expect(judgeClicks(links, facts, RULES)).toEqual(['ip_limit', 'valid']);
  });

  it('still claims the impression of a valid click that went unbilled (a second follow is a duplicate)', () => {
    const links = [
      follow('a', 'c1', 'ip', 5),
      { ...follow('a2', 'c1', 'other', 6), impressionId: 'a' },
    ];

    expect(judgeClicks(links, factsOf([links[0]]), RULES, new Set(['a']))).toEqual([
      'valid',
      'duplicate',
    ]);
  });
});

describe('judgeClicks: clicks on a test key’s ads', () => {
  const testFacts = (links: FollowedLink[], billedByIp: BatchFacts['billedByIp'] = []) => {
    const facts = factsOf(links);
    for (const served of facts.impressions.values()) served.test = true;
    return { ...facts, billedByIp };
  };

  it('judges every follow of a test ad `test`: never valid, whatever else holds', () => {
    const links = [
      follow('a', 'c1', 'ip', 5),
      // Too fast, from a bot, a second follow of the same ad: still only `test`.
      follow('b', 'c1', 'ip', 0),
      { ...follow('c', 'c1', 'ip', 6), userAgent: 'curl/8.5.0' },
      { ...follow('a2', 'c1', 'ip', 7), impressionId: 'a' },
    ];

    expect(judgeClicks(links, testFacts(links.slice(0, 3)), RULES)).toEqual([
      'test',
      'test',
      'test',
      'test',
    ]);
  });

  it('uses up no IP allowance, so a live click from the same IP right after is valid', () => {
    const links = [follow('t', 'c1', 'ip', 5), follow('live', 'c1', 'ip', 6)];
    const facts = factsOf(links);
    facts.impressions.get('t')!.test = true;

    expect(judgeClicks(links, facts, RULES)).toEqual(['test', 'valid']);
  });

  it('keeps the link’s own faults first: a forged or mismatched link is not `test`', () => {
    const links = [
      { ...follow('a', 'c1', 'ip', 5), impressionId: null },
      { ...follow('b', 'c1', 'ip', 5), campaignId: 'c2' },
    ];
    const facts = testFacts([follow('b', 'c1', 'ip', 5)]);

    expect(judgeClicks(links, facts, RULES)).toEqual(['bad_signature', 'mismatch']);
  });
});

describe('mayBill: the campaigns a batch locks before judging', () => {
  it('is true for every follow judged valid, false for what is never valid whatever is stored', () => {
    const person = follow('a', 'c1', 'ip', 5);
    const links: FollowedLink[] = [
      person,
      { ...follow('b', 'c1', 'ip2', 5), impressionId: null },
      { ...follow('c', 'c1', 'ip3', 5), intent: 'head' },
      { ...follow('d', 'c1', 'ip4', 5), intent: 'prefetch' },
      { ...follow('e', 'c1', 'ip5', 5), userAgent: 'Googlebot/2.1' },
      { ...follow('f', 'c1', 'ip6', 5), userAgent: null },
    ];
    const facts = factsOf(links.filter((l) => l.impressionId !== null));

    const verdicts = judgeClicks(links, facts, RULES);

    expect(verdicts).toEqual(['valid', 'bad_signature', 'head_request', 'prefetch', 'bot', 'bot']);
    expect(links.map(mayBill)).toEqual([true, false, false, false, false, false]);
  });
});
