import { PublisherAuditEntry } from '@/publishers/entities/publisher-audit-entry.entity';
import type { SignedIn, SignedInPublisher } from '@test/factories';
import { body, type Json } from '@test/support/operator-api';
import { earnClicks } from '@test/support/payouts';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const UNKNOWN = '019a8a3e-0000-7000-8000-000000000000';

describe(`the publishers screen's operator API (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;

  beforeAll(async () => {
    t = await startTestApp({ PAYOUT_THRESHOLD: '15' });
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  const of = (p: SignedInPublisher, rest: string) =>
    `/api/admin/publishers/${p.publisher.id}/${rest}`;

  describe('GET /api/admin/publishers/{id}/models', () => {
    it("lists a publisher's models, oldest first, with the status an operator set", async () => {
      const p = await t.f.signedInPublisher();
      const second = await body(await p.api('POST', '/api/models', { name: 'Second bot' }), 201);
      await body(
        await operator.api('PATCH', `/api/admin/models/${String(second.id)}`, {
          status: 'deactivated',
        }),
        200,
      );

      const answer = await body(await operator.api('GET', of(p, 'models')), 200);

      const own = await body(await p.api('GET', `/api/models/${p.model.id}`), 200);
      expect(answer.models).toEqual([
        own,
        expect.objectContaining({
          id: second.id,
          name: 'Second bot',
          status: 'deactivated',
          deactivated_by: 'operator',
          created_at: second.created_at,
        }),
      ]);
    });

    it('answers an empty list for a publisher without models', async () => {
      const p = await t.f.operator();
      expect(
        await body(
          await operator.api('GET', `/api/admin/publishers/${p.publisher.id}/models`),
          200,
        ),
      ).toEqual({ models: [] });
    });

    it('answers 404 publisher_not_found for an unknown id, and 403 to a publisher', async () => {
      await expectProblem(
        await operator.api('GET', `/api/admin/publishers/${UNKNOWN}/models`),
        404,
        'publisher_not_found',
      );
      const p = await t.f.signedInPublisher();
      await expectProblem(await p.api('GET', of(p, 'models')), 403, 'forbidden');
    });
  });

  describe('GET /api/admin/reports/balances', () => {
    const balances = async () =>
      body(await operator.api('GET', '/api/admin/reports/balances'), 200);
    const rowOf = (answer: Json, p: SignedInPublisher) =>
      (answer.publishers as Json[]).find((r) => r.publisher_id === p.publisher.id);

    it('lists every publisher with its unpaid balance, due or not, and no operator', async () => {
      const rich = await t.f.signedInPublisher({ revenueShare: 0.5 });
      await earnClicks(t, rich.key, 4, '10'); // 20 earned
      await body(
        await operator.api('POST', of(rich, 'payouts'), {
          amount: 2.5,
          period_start: '2026-11-01',
          period_end: '2026-11-30',
          method: 'wise',
          reference: 'BAL-1',
        }),
        201,
      );
      const poor = await t.f.signedInPublisher({ revenueShare: 0.5 });
      await earnClicks(t, poor.key, 1, '10'); // 5 earned
      const idle = await t.f.signedInPublisher();

      const answer = await balances();

      expect(answer).toMatchObject({ currency: 'USD', payout_threshold: 15 });
      expect(rowOf(answer, rich)).toEqual({
        publisher_id: rich.publisher.id,
        email: rich.publisher.email,
        name: rich.publisher.name,
        earned_total: 20,
        paid_total: 2.5,
        unpaid_balance: 17.5,
        due: true,
        last_payout_at: expect.any(String),
      });
      expect(rowOf(answer, poor)).toMatchObject({ unpaid_balance: 5, due: false });
      expect(rowOf(answer, idle)).toMatchObject({
        earned_total: 0,
        paid_total: 0,
        unpaid_balance: 0,
        due: false,
        last_payout_at: null,
      });
      const ids = (answer.publishers as Json[]).map((r) => r.publisher_id);
      expect(ids).not.toContain(operator.publisher.id);
      const unpaid = (answer.publishers as Json[]).map((r) => r.unpaid_balance as number);
      expect(unpaid).toEqual([...unpaid].sort((a, b) => b - a));
    });

    it('downloads as CSV with format=csv or Accept: text/csv', async () => {
      const p = await t.f.signedInPublisher({ revenueShare: 0.5 });
      await earnClicks(t, p.key, 2, '10');
      const viaQuery = await operator.api('GET', '/api/admin/reports/balances?format=csv');
      const viaAccept = await fetch(`${t.baseUrl}/api/admin/reports/balances`, {
        headers: { authorization: `Bearer ${operator.token}`, accept: 'text/csv' },
      });
      for (const response of [viaQuery, viaAccept]) {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(response.headers.get('content-disposition')).toBe(
          'attachment; filename="balances.csv"',
        );
        const [header, ...lines] = (await response.text())
          .split('\r\n')
          .filter((line) => line !== '')
          .map((line) => line.split(','));
        expect(header).toEqual([
          'publisher_id',
          'email',
          'name',
          'earned_total',
          'paid_total',
          'unpaid_balance',
          'due',
          'last_payout_at',
        ]);
        expect(lines).toContainEqual([
          p.publisher.id,
          p.publisher.email,
          p.publisher.name,
          '10',
          '0',
          '10',
          'false',
          '',
        ]);
      }
    });

    it('answers 400 validation_failed for an unknown format, and 403 to a publisher', async () => {
      await expectProblem(
        await operator.api('GET', '/api/admin/reports/balances?format=xml'),
        400,
        'validation_failed',
      );
      const p = await t.f.signedInPublisher();
      await expectProblem(await p.api('GET', '/api/admin/reports/balances'), 403, 'forbidden');
    });
  });

  describe('PATCH /api/admin/publishers/{id} with a reason, and GET …/audit', () => {
    const patch = (p: SignedInPublisher, changes: Json) =>
      operator.api('PATCH', `/api/admin/publishers/${p.publisher.id}`, changes);

    it('keeps who changed the status, when, from, to and why, newest first', async () => {
      const p = await t.f.signedInPublisher();
      await body(await patch(p, { status: 'suspended', reason: '  Invalid clicks.  ' }), 200);
      await body(await patch(p, { status: 'active' }), 200);

      const audit = await body(await operator.api('GET', of(p, 'audit')), 200);

      expect(audit).toEqual({
        entries: [
          {
            id: expect.any(String),
            actor_id: operator.publisher.id,
            from_status: 'suspended',
            to_status: 'active',
            reason: null,
            created_at: expect.any(String),
          },
          {
            id: expect.any(String),
            actor_id: operator.publisher.id,
            from_status: 'active',
            to_status: 'suspended',
            reason: 'Invalid clicks.',
            created_at: expect.any(String),
          },
        ],
      });
      const [newest, oldest] = audit.entries as Json[];
      expect(Date.parse(newest.created_at as string)).toBeGreaterThanOrEqual(
        Date.parse(oldest.created_at as string),
      );
    });

    it('keeps nothing when the status stays or only the share changes', async () => {
      const p = await t.f.signedInPublisher();
      await body(await patch(p, { status: 'active', reason: 'No change' }), 200);
      await body(await patch(p, { revenue_share: 0.5 }), 200);
      expect(await body(await operator.api('GET', of(p, 'audit')), 200)).toEqual({ entries: [] });
    });

    it.each([
      ['an empty reason', { status: 'suspended', reason: '   ' }],
      ['a reason of 501 characters', { status: 'suspended', reason: 'x'.repeat(501) }],
      ['a reason that is not text', { status: 'suspended', reason: 42 }],
      ['a reason without a status', { reason: 'Why not' }],
    ])('refuses %s (400 validation_failed on reason) and changes nothing', async (_, changes) => {
      const p = await t.f.signedInPublisher();
      const problem = await expectProblem(await patch(p, changes), 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.field)).toEqual(['reason']);
      expect(
        await t.dataSource
          .getRepository(PublisherAuditEntry)
          .countBy({ publisherId: p.publisher.id }),
      ).toBe(0);
      expect((await body(await p.api('GET', '/api/publisher'), 200)).status).toBe('active');
    });

    it('keeps a reason of 500 characters', async () => {
      const p = await t.f.signedInPublisher();
      await body(await patch(p, { status: 'suspended', reason: 'y'.repeat(500) }), 200);
      const audit = await body(await operator.api('GET', of(p, 'audit')), 200);
      expect((audit.entries as Json[])[0].reason).toBe('y'.repeat(500));
    });

    it('answers 404 publisher_not_found for an unknown id, and 403 to a publisher', async () => {
      await expectProblem(
        await operator.api('GET', `/api/admin/publishers/${UNKNOWN}/audit`),
        404,
        'publisher_not_found',
      );
      await expectProblem(
        await operator.api('PATCH', `/api/admin/publishers/${UNKNOWN}`, {
          status: 'suspended',
          reason: 'Gone',
        }),
        404,
        'publisher_not_found',
      );
      const p = await t.f.signedInPublisher();
      await expectProblem(await p.api('GET', of(p, 'audit')), 403, 'forbidden');
    });
  });
});
