import { type BatchFacts, type ClickRules, type FollowedLink, judgeClicks } from './click-judge';
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
