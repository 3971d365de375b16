import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { RetentionService } from '@/tracking/retention.service';
import { startTestApp, TestApp } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';

describe(`retention (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RETENTION_DAYS: '30' });
  });
  afterAll(() => t.close());

  it('deletes impressions older than RETENTION_DAYS with their conversation, keeping the daily totals', async () => {
    const { key, model } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'violin' });
    for (let i = 0; i < 2; i++) {
      await t.fetchAds(key, { conversation: 'private words', context_keywords: 'violin' });
    }
    const impressions = t.dataSource.getRepository(Impression);
    const [old] = await impressions.findBy({ modelId: model.id });
    await impressions.update({ id: old.id }, { createdAt: new Date(Date.now() - 31 * 86_400_000) });

    const purged = await t.app.get(RetentionService).purge();

    expect(purged.impressions).toBe(1);
    expect(await impressions.countBy({ modelId: model.id })).toBe(1);
    const totals = await t.dataSource.getRepository(DailyStat).findBy({ modelId: model.id });
    expect(totals.reduce((sum, row) => sum + row.impressions, 0)).toBe(2);
  });
});
