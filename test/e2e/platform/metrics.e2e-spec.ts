import { AppConfig } from '@/config/app-config';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** One scrape: each sample by its name and its labels (in any order). */
class Scrape {
  private readonly samples = new Map<string, number>();

  constructor(readonly text: string) {
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const [, name, labels = '', value] = /^([\w:]+)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const pairs = [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]);
      this.samples.set(Scrape.key(name, Object.fromEntries(pairs)), Number(value));
    }
  }

  private static key(name: string, labels: Record<string, string>): string {
    const sorted = Object.keys(labels)
      .sort()
      .map((k) => `${k}=${labels[k]}`);
    return `${name}{${sorted.join(',')}}`;
  }

  /** The sample's value, or undefined when the scrape has no such sample. */
  get(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.samples.get(Scrape.key(name, labels));
  }

  /** A counter's value, 0 before its first increment. */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.get(name, labels) ?? 0;
  }
}

const FETCH_ADS_OK = { method: 'POST', route: '/api/fetch-ads', status: '200' };

describe(`GET /metrics (${testDatabaseKind()})`, () => {
  const RATE_LIMIT = 10;
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // Only campaign changes rebuild the index during the test, so rebuilds count exactly.
      CAMPAIGN_INDEX_REFRESH_SECONDS: '3600',
    });
  });
  afterAll(() => t.close());

  async function scrape(app: TestApp = t, headers: Record<string, string> = {}): Promise<Scrape> {
    const response = await app.http('/metrics', { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return new Scrape(await response.text());
  }

  /** Scrapes until `ready` holds (a click is counted once committed, maybe after its redirect). */
  async function scrapeUntil(ready: (s: Scrape) => boolean): Promise<Scrape> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const s = await scrape();
      if (ready(s) || Date.now() > deadline) return s;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('counts ads served, no-fills, clicks, batches, index rebuilds, throttles and requests by route', async () => {
    const before = await scrape();
    await t.f.campaign({ keywords: 'laptop' });
    await t.f.campaign({ keywords: 'gpu' });
    const publisher = await t.f.publisherWithKey();

    // 3 fetch-ads that fill and 2 that do not.
    const links: string[] = [];
    for (const keywords of ['laptop', 'gpu', 'laptop']) {
      links.push(await campaignLink(await t.fetchAds(publisher.key, ask(keywords))));
    }
    for (const keywords of ['sailing', 'pottery']) {
      await expectProblem(await t.fetchAds(publisher.key, ask(keywords)), 404, 'no_matching_ad');
    }

    // Clicks: 3 billed, then a duplicate and a forged signature (both invalid, never billed).
    for (const link of links) expect((await followAsBrowser(link)).status).toBe(302);
    expect((await followAsBrowser(links[0])).status).toBe(302);
    const forged = new URL(links[1]);
    forged.searchParams.set('sig', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect((await followAsBrowser(forged.toString())).status).toBe(302);

    // Another key sends bad bodies up to its limit (400s, never matched), then is throttled.
    const throttledKey = (await t.f.publisherWithKey()).key;
    for (let i = 0; i < RATE_LIMIT; i++) {
      await expectProblem(await t.fetchAds(throttledKey, {}), 400, 'validation_failed');
    }
    await expectProblem(await t.fetchAds(throttledKey, ask('laptop')), 429, 'rate_limited');
    // A path no route serves is one series, whatever the path.
    expect((await t.http('/no-such-page-123')).status).toBe(404);

    const clicks = (s: Scrape) => s.count('adline_batch_size_sum', { writer: 'clicks' });
    const after = await scrapeUntil((s) => clicks(s) - clicks(before) >= 5);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      after.count(name, labels) - before.count(name, labels);
    const billed = { outcome: 'billed', reason: 'none' };

    expect(delta('adline_ads_served_total')).toBe(3);
    expect(delta('adline_ad_no_fill_total', { reason: 'no_matching_ad' })).toBe(2);
    expect(delta('adline_clicks_total', billed)).toBe(3);
    expect(delta('adline_clicks_total', { outcome: 'invalid', reason: 'duplicate' })).toBe(1);
    expect(delta('adline_clicks_total', { outcome: 'invalid', reason: 'bad_signature' })).toBe(1);
    expect(after.get('adline_clicks_lost_total')).toBe(0);

    expect(delta('adline_http_requests_total', FETCH_ADS_OK)).toBe(3);
    expect(delta('adline_http_request_duration_seconds_count', FETCH_ADS_OK)).toBe(3);
    expect(delta('adline_http_request_duration_seconds_sum', FETCH_ADS_OK)).toBeGreaterThan(0);
    const fetchAds = (status: string) => ({ ...FETCH_ADS_OK, status });
    expect(delta('adline_http_requests_total', fetchAds('404'))).toBe(2);
    expect(delta('adline_http_requests_total', fetchAds('400'))).toBe(RATE_LIMIT);
    expect(delta('adline_http_requests_total', fetchAds('429'))).toBe(1);
    const click = { method: 'GET', route: '/api/campaign_click', status: '302' };
    expect(delta('adline_http_requests_total', click)).toBe(5);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(delta('adline_http_requests_total', unmatched)).toBe(1);
    expect(delta('adline_throttled_requests_total', { route: '/api/fetch-ads' })).toBe(1);

    // Every committed row is in exactly one batch.
    const impressions = { writer: 'impressions' };
    expect(delta('adline_batch_size_sum', impressions)).toBe(3);
    expect(delta('adline_batch_size_count', impressions)).toBeGreaterThanOrEqual(1);
    expect(delta('adline_batch_commit_duration_seconds_count', impressions)).toBe(
      delta('adline_batch_size_count', impressions),
    );
    expect(delta('adline_batch_size_sum', { writer: 'clicks' })).toBe(5);
    expect(delta('adline_batch_commit_duration_seconds_count', { writer: 'clicks' })).toBe(
      delta('adline_batch_size_count', { writer: 'clicks' }),
    );
    // The same figures as the writers' own statistics.
    expect(after.count('adline_batch_size_sum', { writer: 'clicks' })).toBe(
      t.app.get(ClickRecorder).stats.clicks,
    );

    // Each campaign made one rebuild; the index serves both.
    expect(after.get('adline_campaign_index_campaigns')).toBe(2);
    expect(delta('adline_campaign_index_rebuilds_total', { result: 'ok' })).toBe(2);
    expect(delta('adline_campaign_index_rebuild_duration_seconds_count')).toBe(2);
  });

  it("has Node's process metrics and, on MySQL/MariaDB, the database pool", async () => {
    const s = await scrape();
    expect(s.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(s.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(s.get('process_start_time_seconds')).toBeGreaterThan(0);
    if (t.config.database.type === 'mysql') {
      expect(s.get('adline_database_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(
        0,
      );
      expect(s.get('adline_database_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
      expect(s.get('adline_database_pool_waiting')).toBe(0);
    } else {
      // SQLite has no pool: the metric is declared, without samples.
      expect(s.get('adline_database_pool_connections', { state: 'in_use' })).toBeUndefined();
      expect(s.text).toContain('# TYPE adline_database_pool_connections gauge');
    }
  });

  it('is open without METRICS_TOKEN, and the app instances of one process keep their own figures', async () => {
    const other = await startTestApp();
    try {
      const ours = (await scrape()).count('adline_http_requests_total', FETCH_ADS_OK);
      const theirs = (await scrape(other)).count('adline_http_requests_total', FETCH_ADS_OK);
      expect(ours).toBeGreaterThanOrEqual(3);
      expect(theirs).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('with METRICS_ENABLED=false answers 404 not_found, token or not, and still serves ads', async () => {
    const off = await startTestApp({
      METRICS_ENABLED: 'false',
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    try {
      await off.f.campaign({ keywords: 'laptop' });
      const publisher = await off.f.publisherWithKey();
      await campaignLink(await off.fetchAds(publisher.key, ask('laptop')));
      await expectProblem(await off.http('/metrics'), 404, 'not_found');
      const withToken = await off.http('/metrics', {
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      await expectProblem(withToken, 404, 'not_found');
    } finally {
      await off.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    const TOKEN = 'metrics-token-0123456789';
    let guarded: TestApp;

    beforeAll(async () => {
      guarded = await startTestApp({ METRICS_TOKEN: TOKEN });
    });
    afterAll(() => guarded.close());

    it('answers 401 problem+json without the token or with a wrong one, 200 with it', async () => {
      const none = await guarded.http('/metrics');
      await expectProblem(none, 401, 'unauthorized');
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await guarded.http('/metrics', {
        headers: { authorization: 'Bearer metrics-token-0123456788' },
      });
      await expectProblem(wrong, 401, 'unauthorized');
      const s = await scrape(guarded, { authorization: `Bearer ${TOKEN}` });
      expect(s.get('adline_ads_served_total')).toBe(0);
      // The refused scrapes were counted like any request.
      expect(
        s.count('adline_http_requests_total', { method: 'GET', route: '/metrics', status: '401' }),
      ).toBe(2);
    });

    it('refuses a token shorter than 16 characters at start-up, without showing it', () => {
      expect(() => AppConfig.fromEnvironment({ METRICS_TOKEN: 'short-token' })).toThrow(
        /^Invalid environment variable METRICS_TOKEN: must be at least 16 characters$/,
      );
    });
  });
});
