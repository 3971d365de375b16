import { utcDay } from '@/common/clock';
import type { InvalidClickReason } from '@/tracking/entities/click.entity';
import { UNBILLED_REASON_TEXTS } from '@/stats/unbilled-reasons';
import type { SignedInPublisher } from '@test/factories';
import { ask, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * One text per reason, for every reason a click can go unbilled for and no other: stats may
 * not import the click judge's type, so this file holds the two together at compile time.
 */
type Described = keyof typeof UNBILLED_REASON_TEXTS;
const everyReasonDescribed: Record<InvalidClickReason | 'over_budget' | 'unrecorded', true> =
  {} as Record<Described, true>;
const noOtherReason: Record<Described, true> = {} as Record<
  InvalidClickReason | 'over_budget' | 'unrecorded',
  true
>;
void [everyReasonDescribed, noOtherReason];

interface UnbilledClicks {
  from: string;
  to: string;
  rows: { date: string; model_id: string; reason: string; clicks: number }[];
  totals: { reason: string; clicks: number }[];
  reasons: { reason: string; title: string; meaning: string; what_to_do: string }[];
}

const DAY_MS = 86_400_000;
// Yesterday to tomorrow: today's traffic is inside even if the run crosses UTC midnight.
const range = () =>
  `from=${utcDay(new Date(Date.now() - DAY_MS))}&to=${utcDay(new Date(Date.now() + DAY_MS))}`;

describe(`GET /api/stats/unbilled-clicks (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let me: SignedInPublisher;
  let today: string;

  /**
   * Through the real routes: one ad followed with curl (no browser: a bot), one clicked by a
   * person and then again (a duplicate), and one clicked on a campaign whose budget pays one
   * click only, after a first billed one (over budget). Another publisher's bot click.
   */
  beforeAll(async () => {
    t = await startTestApp();
    me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'kayak rental', bid: '0.40' });
    await t.f.campaign({
      keywords: 'surf school',
      bid: '0.50',
      budgetTotal: '0.50',
      budgetDaily: '0.50',
    });
    const serve = async (key: string, keywords: string) =>
      campaignLink(await t.fetchAds(key, ask(keywords)));
    const redirected = async (response: Promise<Response>) =>
      expect((await response).status).toBe(302);
    today = utcDay(new Date());
    await redirected(followWith(await serve(me.key, 'kayak rental'), 'curl/8.5.0'));
    const twice = await serve(me.key, 'kayak rental');
    await redirected(followAsBrowser(twice));
    await redirected(followAsBrowser(twice));
    const first = await serve(me.key, 'surf school');
    const second = await serve(me.key, 'surf school');
    await redirected(followAsBrowser(first));
    await redirected(followAsBrowser(second));
    const stranger = await t.f.publisherWithKey();
    await redirected(followWith(await serve(stranger.key, 'kayak rental'), null));
  });
  afterAll(() => t.close());

  it('lists each day and model’s unbilled clicks by reason, with totals per reason', async () => {
    const response = await me.api('GET', `/api/stats/unbilled-clicks?${range()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as UnbilledClicks;
    const row = (reason: string) => ({ date: today, model_id: me.model.id, reason, clicks: 1 });
    // In the reasons' order: duplicate, bot, over_budget.
    expect(body.rows).toEqual([row('duplicate'), row('bot'), row('over_budget')]);
    expect(body.totals).toEqual([
      { reason: 'duplicate', clicks: 1 },
      { reason: 'bot', clicks: 1 },
      { reason: 'over_budget', clicks: 1 },
    ]);
  });

  it('explains every reason in plain words, the curl click’s among them', async () => {
    const body = (await (
      await me.api('GET', `/api/stats/unbilled-clicks?${range()}`)
    ).json()) as UnbilledClicks;
    const bot = body.reasons.find((r) => r.reason === 'bot');
    expect(bot?.meaning).toContain(
      'Following your own ad’s link with curl or a script is not counted: only a person in a browser is.',
    );
    expect(bot?.what_to_do).toMatch(/test key/);
    expect(body.reasons.map((r) => r.reason)).toEqual(Object.keys(UNBILLED_REASON_TEXTS));
    expect(body.reasons.map((r) => r.reason)).toEqual(
      expect.arrayContaining(['duplicate', 'too_fast', 'ip_limit', 'prefetch', 'over_budget']),
    );
    for (const reason of body.reasons) {
      expect(reason.title.length).toBeGreaterThan(0);
      expect(reason.meaning.length).toBeGreaterThan(0);
      expect(reason.what_to_do.length).toBeGreaterThan(0);
    }
  });

  it('downloads the same as CSV with format=csv and with Accept: text/csv', async () => {
    const expectCsv = async (response: Response) => {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const lines = (await response.text()).split('\r\n');
      expect(lines[0]).toBe('date,model_id,reason,clicks');
      expect(lines).toContain(`${today},${me.model.id},bot,1`);
      expect(lines).toContain('total,,bot,1');
    };
    await expectCsv(await me.api('GET', `/api/stats/unbilled-clicks?${range()}&format=csv`));
    await expectCsv(
      await fetch(`${t.baseUrl}/api/stats/unbilled-clicks?${range()}`, {
        headers: { authorization: `Bearer ${me.token}`, accept: 'text/csv' },
      }),
    );
  });

  it('narrows to one model, and answers 404 for a model that is not the publisher’s', async () => {
    const other = (await (await me.api('POST', '/api/models', { name: 'Quiet' })).json()) as {
      id: string;
    };
    const quiet = (await (
      await me.api('GET', `/api/stats/unbilled-clicks?${range()}&model_id=${other.id}`)
    ).json()) as UnbilledClicks;
    expect(quiet.rows).toEqual([]);
    expect(quiet.totals).toEqual([]);
    await expectProblem(
      await me.api('GET', `/api/stats/unbilled-clicks?${range()}&model_id=nope`),
      404,
      'model_not_found',
    );
  });

  it('answers 400 for a bad range and 401 without a session', async () => {
    const problem = await expectProblem(
      await me.api('GET', '/api/stats/unbilled-clicks?from=2026-03-02&to=2026-03-01'),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['to']);
    await expectProblem(await t.http(`/api/stats/unbilled-clicks?${range()}`), 401, 'unauthorized');
  });
});
