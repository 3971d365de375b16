import { Click } from '@/tracking/entities/click.entity';
import { clickTraffic, PRODUCTION_RULES } from '@test/support/click-traffic';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { withoutClickId } from '@test/support/ads';

describe(`invalid clicks are never billed (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(PRODUCTION_RULES);
  });
  afterAll(() => t.close());

  const { newPerson, serve, servedAgo, follow, billedOf, setUp } = clickTraffic(() => t);

  /** Alters a signed link's query: each entry replaces a parameter, repeats it (`+name`) or drops it (`-name`). */
  const altered = (link: string, changes: [string, string][]) => {
    const url = new URL(link);
    for (const [name, value] of changes) {
      if (name.startsWith('+')) url.searchParams.append(name.slice(1), value);
      else if (name.startsWith('-')) url.searchParams.delete(name.slice(1));
      else url.searchParams.set(name, value);
    }
    return url.toString();
  };
  const LONG = (n: number) => 'a'.repeat(n);
  type Params = URLSearchParams;
  /** [what, how the served link is altered, the model id kept], from the link's parameters. */
  const alterations: [string, (p: Params) => [string, string][], (p: Params) => string][] = [
    ['sig repeated', () => [['+sig', 'x']], (p) => p.get('model_id')!],
    ['the signed sig given twice', (p) => [['+sig', p.get('sig')!]], (p) => p.get('model_id')!],
    ['imp repeated', () => [['+imp', 'x']], (p) => p.get('model_id')!],
    ['imp of 65 characters', () => [['imp', LONG(65)]], (p) => p.get('model_id')!],
    ['sig of 129 characters', () => [['sig', LONG(129)]], (p) => p.get('model_id')!],
    ['a huge sig (6,000 characters)', () => [['sig', LONG(6000)]], (p) => p.get('model_id')!],
    ['an empty sig', () => [['sig', '']], (p) => p.get('model_id')!],
    ['an empty imp', () => [['imp', '']], (p) => p.get('model_id')!],
    ['model_id repeated', () => [['+model_id', 'other-model']], (p) => p.get('model_id')!],
    ['model_id of 65 characters', () => [['model_id', LONG(65)]], () => LONG(64)],
    ['a huge model_id (6,000 characters)', () => [['model_id', LONG(6000)]], () => LONG(64)],
    ['model_id changed', () => [['model_id', 'other-model']], () => 'other-model'],
    ['model_id empty', () => [['model_id', '']], () => ''],
    ['no model_id at all', () => [['-model_id', '']], () => ''],
  ];

  it.each(alterations)(
    'redirects a link with %s and records it unbilled (bad_signature)',
    async (_label, changes, keptModel) => {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);
      const params = new URL(link).searchParams;
      const changed = altered(link, changes(params));
      const ip = newPerson();

      const response = await follow(changed, { ip });

      expect(response.status).toBe(302);
      expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
      const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: campaign.id });
      expect(clicks).toEqual([
        expect.objectContaining({
          status: 'invalid',
          invalidReason: 'bad_signature',
          impressionId: null,
          modelId: keptModel(params),
          costMicros: 0,
        }),
      ]);
      // The link as served is billed next, from the same IP: the altered one used up nothing.
      expect((await follow(link, { ip })).status).toBe(302);
      expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
    },
  );

  it('bills a signed link whatever targetLink says (repeated, huge, empty)', async () => {
    for (const changes of [
      [['+targetLink', 'https://elsewhere.example/']],
      [['targetLink', `https://elsewhere.example/${LONG(6000)}`]],
      [['targetLink', '']],
    ] as [string, string][][]) {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);

      const response = await follow(altered(link, changes), { ip: newPerson() });

      expect(response.status).toBe(302);
      expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
      expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
    }
  });

  it('answers 400 validation_failed and records nothing without a valid campaign_id', async () => {
    const { publisher, campaign } = await setUp();
    const { link } = await serve(campaign, publisher.key);
    const without = (name: string) => {
      const url = new URL(link);
      url.searchParams.delete(name);
      return url.toString();
    };
    const refused = [
      without('campaign_id'),
      altered(link, [['campaign_id', '']]),
      altered(link, [['+campaign_id', campaign.id]]),
      altered(link, [['campaign_id', LONG(65)]]),
    ];
    for (const url of refused) {
      await expectProblem(await follow(url, { ip: newPerson() }), 400, 'validation_failed');
    }
    expect(await t.dataSource.getRepository(Click).countBy({ campaignId: campaign.id })).toBe(0);
  });
});
