import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { CONTENT_CATEGORIES } from '@/common/content-categories';
import type { SignedIn } from '@test/factories';
import { body, campaignCalls, operatorWithAdvertiser } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`operator API: a campaign's IAB content category (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ operator, advertiserId } = await operatorWithAdvertiser(t));
  });
  afterAll(() => t.close());

  const { campaignBody, create, patch } = campaignCalls(() => ({ t, operator, advertiserId }));
  const indexed = (id: unknown) => t.app.get(CampaignIndexService).current.get(String(id));

  it('is set at creation, shown when read, and carried by the live index with the advertiser', async () => {
    const created = await create({ category: '596' });
    expect(created.category).toBe('596');
    const read = await body(
      await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`),
    );
    expect(read.category).toBe('596');
    expect(indexed(created.id)).toMatchObject({ category: '596', advertiserId });
  });

  it('is null when left out or sent as null: not categorised', async () => {
    const omitted = await create();
    const cleared = await create({ category: null });
    expect(omitted.category).toBeNull();
    expect(cleared.category).toBeNull();
    expect(indexed(omitted.id)).toMatchObject({ category: null, advertiserId });
  });

  it('takes every tier-1 id of the taxonomy, letters and digits alike', async () => {
    expect(CONTENT_CATEGORIES).toHaveLength(37);
    for (const id of ['1', 'JLBCU7', 'v9i3On', '80DV8O']) {
      expect((await create({ category: id })).category).toBe(id);
    }
  });

  it('changes and clears with PATCH, each change audited and served', async () => {
    const created = await create({ category: '483' });
    const id = String(created.id);
    expect((await body(await patch(id, { category: 'JLBCU7' }), 200)).category).toBe('JLBCU7');
    expect(indexed(id)?.category).toBe('JLBCU7');
    expect((await body(await patch(id, { category: null }), 200)).category).toBeNull();
    expect(indexed(id)?.category).toBeNull();
    const audit = await body(await operator.api('GET', `/api/admin/campaigns/${id}/audit`), 200);
    const changes = (audit.items as { field: string | null; new_value: unknown }[]).filter(
      (entry) => entry.field === 'category',
    );
    expect(changes.map((entry) => entry.new_value)).toEqual([null, 'JLBCU7']);
  });

  it.each([
    ['an unknown id', 'IAB1'],
    ['another letter case', 'jlbcu7'],
    ['a tier-2 id', '324'],
    ['a name instead of an id', 'Sports'],
    ['a number', 596],
  ])('refuses %s with 400 validation_failed naming the field', async (_what, category) => {
    const problem = await expectProblem(
      await operator.api('POST', '/api/admin/campaigns', campaignBody({ category })),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([
      { field: 'category', message: 'category must be the id of a tier-1 IAB content category' },
    ]);
    const created = await create({ category: '596' });
    await expectProblem(await patch(created.id, { category }), 400, 'validation_failed');
  });
});
