import { Campaign } from '@/campaigns/entities/campaign.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { BROWSER_UA, withoutClickId } from './ads';
import type { TestApp } from './test-app';

/**
 * The production defaults (CLICK_MIN_SECONDS=1, per IP 1 click a minute per campaign, 10 an
 * hour, 25 a day); the harness relaxes them for other suites. Behind a trusted proxy
 * (127.0.0.1, the test itself), so each simulated person has an IP of their own.
 */
export const PRODUCTION_RULES = {
  CLICK_MIN_SECONDS: '',
  CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '',
  CLICK_IP_LIMIT_PER_HOUR: '',
  CLICK_IP_LIMIT_PER_DAY: '',
  TRUSTED_PROXIES: '127.0.0.1',
};

export interface Follow {
  ip: string;
  userAgent?: string | null;
  method?: string;
  headers?: Record<string, string>;
}

/**
 * Serving ads and following their links as distinct people, and reading back what the click
 * path recorded and billed. `app` is called when a helper runs, so the suite can start its
 * app in `beforeAll` and take these helpers at the top of its `describe`.
 */
export function clickTraffic(app: () => TestApp) {
  let people = 0;
  let keywordCount = 0;

  /** A new person's IP address. */
  const newPerson = () => {
    people += 1;
    return `198.51.${Math.floor(people / 250)}.${(people % 250) + 1}`;
  };
  const uniqueKeyword = () => `widget${++keywordCount}x`;

  /** Serves `campaign`'s ad to the publisher's model; returns its link and impression id. */
  async function serve(campaign: Campaign, publisherKey: string) {
    const response = await app().fetchAds(publisherKey, {
      conversation: 'Which one should I buy?',
      context_keywords: campaign.keywords.join(', '),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { advertisements: { campaign_link: string }[] };
    const link = body.advertisements[0].campaign_link;
    const impressionId = new URL(link).searchParams.get('imp')!;
    return { link, impressionId };
  }

  /** Moves an impression back in time: as if it had been served `ms` ago. */
  const servedAgo = (impressionId: string, ms: number) =>
    app()
      .dataSource.getRepository(Impression)
      .update({ id: impressionId }, { createdAt: new Date(Date.now() - ms) });

  const follow = (link: string, { ip, userAgent = BROWSER_UA, method, headers }: Follow) =>
    fetch(link, {
      method: method ?? 'GET',
      redirect: 'manual',
      headers: {
        'x-forwarded-for': ip,
        ...(userAgent === null ? {} : { 'user-agent': userAgent }),
        ...headers,
      },
    });

  const clicksOn = (impressionId: string) =>
    app()
      .dataSource.getRepository(Click)
      .find({ where: { impressionId }, order: { createdAt: 'ASC', id: 'ASC' } });
  const billedOf = async (campaignId: string) => ({
    spent: (await app().dataSource.getRepository(Campaign).findOneByOrFail({ id: campaignId }))
      .spentMicros,
    ledger: await app().dataSource.getRepository(LedgerEntry).countBy({ campaignId }),
  });

  /** A publisher with a key, and a campaign (bid 0.40) only its own keyword matches. */
  async function setUp(options: { budgetTotal?: string } = {}) {
    const publisher = await app().f.publisherWithKey();
    const campaign = await app().f.campaign({
      keywords: uniqueKeyword(),
      bid: '0.40',
      targetUrl: `https://advertiser.example/${keywordCount}`,
      ...options,
    });
    return { publisher, campaign };
  }

  /** Asserts that the follow was redirected to the campaign and recorded, unbilled, for `reason`. */
  async function expectUnbilled(
    response: Response,
    campaign: Campaign,
    impressionId: string,
    reason: string,
  ) {
    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
    const clicks = await clicksOn(impressionId);
    expect(clicks.at(-1)).toMatchObject({
      status: 'invalid',
      invalidReason: reason,
      costMicros: 0,
      publisherEarningsMicros: 0,
    });
    expect(await billedOf(campaign.id)).toEqual({ spent: 0, ledger: 0 });
  }

  return {
    newPerson,
    uniqueKeyword,
    serve,
    servedAgo,
    follow,
    clicksOn,
    billedOf,
    setUp,
    expectUnbilled,
  };
}
