import { Payout } from '@/payouts/entities/payout.entity';
import type { SignedIn, SignedInPublisher } from '@test/factories';
import { body, type Json } from '@test/support/operator-api';
import { earnClicks, ledgerMicros } from '@test/support/payouts';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`operators' payouts (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;

  beforeAll(async () => {
    t = await startTestApp({ PAYOUT_THRESHOLD: '15' });
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  const payoutsOf = (p: SignedInPublisher) => `/api/admin/publishers/${p.publisher.id}/payouts`;
  const payout = (overrides: Json = {}): Json => ({
    amount: 5,
    period_start: '2026-11-01',
    period_end: '2026-11-30',
    method: 'bank_transfer',
    reference: 'SEPA-1',
    ...overrides,
  });
  const pay = (p: SignedInPublisher, overrides: Json = {}) =>
    operator.api('POST', payoutsOf(p), payout(overrides));
  const voidIt = (id: unknown, reason = 'Returned by the bank') =>
    operator.api('POST', `/api/admin/payouts/${String(id)}/void`, { reason });
  const unpaid = async (p: SignedInPublisher) =>
    (await body(await p.api('GET', '/api/publisher/balance'), 200)).unpaid_balance;
  const rows = (p: SignedInPublisher) =>
    t.dataSource.getRepository(Payout).countBy({ publisherId: p.publisher.id });

  /** A publisher with a share of 0.5 that has earned `units` (in clicks of 10 units). */
  const earner = async (units: number) => {
    const p = await t.f.signedInPublisher({ revenueShare: 0.5 });
    await earnClicks(t, p.key, units / 5, '10');
    return p;
  };

  it('records a payout (201), which lowers the unpaid balance and shows in the list', async () => {
    const p = await earner(20);

    const created = await body(await pay(p, { amount: 12.34 }), 201);

    expect(created).toEqual({
      id: expect.any(String),
      publisher_id: p.publisher.id,
      amount: 12.34,
      currency: 'USD',
      period_start: '2026-11-01',
      period_end: '2026-11-30',
      method: 'bank_transfer',
      reference: 'SEPA-1',
      status: 'paid',
      created_at: expect.any(String),
      voided_at: null,
      void_reason: null,
    });
    expect(await unpaid(p)).toBe(7.66);
    expect(await body(await operator.api('GET', payoutsOf(p)), 200)).toEqual({
      payouts: [created],
    });
    const [stored] = await t.dataSource.getRepository(Payout).findBy({ id: created.id as string });
    expect(stored).toMatchObject({ amountMicros: 12_340_000, createdBy: operator.publisher.id });
  });

  it('pays out the whole balance, but not a cent more (409 payout_exceeds_balance)', async () => {
    const p = await earner(10);
    await expectProblem(await pay(p, { amount: 10.01 }), 409, 'payout_exceeds_balance');
    expect(await rows(p)).toBe(0);
    await body(await pay(p, { amount: 10 }), 201);
    await expectProblem(
      await pay(p, { amount: 0.01, reference: 'SEPA-2' }),
      409,
      'payout_exceeds_balance',
    );
    expect(await unpaid(p)).toBe(0);
    expect(await rows(p)).toBe(1);
  });

  it('answers the stored payout (200) when the same payout is sent again, and records it once', async () => {
    const p = await earner(10);
    const first = await body(await pay(p), 201);

    const again = await body(await pay(p), 200);

    expect(again).toEqual(first);
    expect(await rows(p)).toBe(1);
    expect(await unpaid(p)).toBe(5);
  });

  it('refuses other fields under a reference already used (409 payout_reference_conflict)', async () => {
    const p = await earner(10);
    await body(await pay(p), 201);
    for (const change of [
      { amount: 4 },
      { method: 'wise' },
      { period_start: '2026-10-31' },
      { period_end: '2026-12-01' },
    ]) {
      await expectProblem(await pay(p, change), 409, 'payout_reference_conflict');
    }
    expect(await rows(p)).toBe(1);
    // A reference is the publisher's own: another publisher may use the same one.
    const other = await earner(10);
    await body(await pay(other), 201);
  });

  it('voids a payout, returning its amount to the balance; voiding again changes nothing', async () => {
    const p = await earner(10);
    const paid = await body(await pay(p, { amount: 8 }), 201);
    expect(await unpaid(p)).toBe(2);

    const voided = await body(await voidIt(paid.id), 200);

    expect(voided).toEqual({
      ...paid,
      status: 'voided',
      voided_at: expect.any(String),
      void_reason: 'Returned by the bank',
    });
    expect(await unpaid(p)).toBe(10);
    expect(await body(await voidIt(paid.id, 'Another reason'), 200)).toEqual(voided);
    expect(await unpaid(p)).toBe(10);
    // The money is back: it can be paid again, under a new reference.
    await body(await pay(p, { amount: 10, reference: 'SEPA-2' }), 201);
    const [stored] = await t.dataSource.getRepository(Payout).findBy({ id: paid.id as string });
    expect(stored.voidedBy).toBe(operator.publisher.id);
  });

  it('answers 404 for an unknown publisher or payout', async () => {
    const unknown = '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e';
    await expectProblem(
      await operator.api('POST', `/api/admin/publishers/${unknown}/payouts`, payout()),
      404,
      'publisher_not_found',
    );
    await expectProblem(
      await operator.api('GET', `/api/admin/publishers/${unknown}/payouts`),
      404,
      'publisher_not_found',
    );
    await expectProblem(await voidIt(unknown), 404, 'payout_not_found');
  });

  it.each([
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 1.001 }],
    ['amount', { amount: '5' }],
    ['amount', { amount: null }],
    ['period_start', { period_start: '2026-02-30' }],
    ['period_start', { period_start: '01.11.2026' }],
    ['period_end', { period_end: '2026-10-31' }],
    ['period_end', { period_end: undefined }],
    ['method', { method: 'cash' }],
    ['reference', { reference: '   ' }],
    ['reference', { reference: 'x'.repeat(101) }],
  ])('refuses an invalid %s (400) and records nothing: %j', async (field, change) => {
    const p = await earner(10);
    const problem = await expectProblem(await pay(p, change), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.field)).toEqual([field]);
    expect(await rows(p)).toBe(0);
  });

  it('refuses a void without a reason, or with one over 500 characters (400)', async () => {
    const p = await earner(10);
    const paid = await body(await pay(p), 201);
    for (const reason of ['', ' ', 'x'.repeat(501)]) {
      await expectProblem(await voidIt(paid.id, reason), 400, 'validation_failed');
    }
    await expectProblem(
      await operator.api('POST', `/api/admin/payouts/${paid.id as string}/void`, {}),
      400,
      'validation_failed',
    );
    expect(await unpaid(p)).toBe(5);
  });

  describe('the payouts-due report', () => {
    it('lists the publishers whose unpaid balance reaches the threshold, largest first', async () => {
      const big = await earner(40);
      const exactly = await earner(15);
      const below = await earner(10);
      const paidDown = await earner(20);
      const paid = await body(await pay(paidDown, { amount: 10 }), 201);

      const report = await body(await operator.api('GET', '/api/admin/reports/payouts-due'), 200);

      expect(report).toMatchObject({ currency: 'USD', payout_threshold: 15 });
      const listed = report.publishers as Json[];
      const ids = listed.map((row) => row.publisher_id);
      expect(ids).toContain(exactly.publisher.id);
      expect(ids).not.toContain(below.publisher.id);
      expect(ids).not.toContain(paidDown.publisher.id);
      expect(ids.indexOf(big.publisher.id)).toBeLessThan(ids.indexOf(exactly.publisher.id));
      const balances = listed.map((row) => row.unpaid_balance as number);
      expect(balances).toEqual([...balances].sort((a, b) => b - a));
      expect(balances.every((balance) => balance >= 15)).toBe(true);
      expect(listed.find((row) => row.publisher_id === big.publisher.id)).toEqual({
        publisher_id: big.publisher.id,
        email: big.publisher.email,
        name: big.publisher.name,
        unpaid_balance: 40,
        earned_total: 40,
        paid_total: 0,
        last_payout_at: null,
      });

      // Voided, the payout no longer counts: the publisher is due again.
      await body(await voidIt(paid.id), 200);
      const after = await body(await operator.api('GET', '/api/admin/reports/payouts-due'), 200);
      expect(after.publishers).toContainEqual(
        expect.objectContaining({ publisher_id: paidDown.publisher.id, unpaid_balance: 20 }),
      );
    });

    it('shows when each was last paid, and downloads as CSV with format=csv or Accept: text/csv', async () => {
      const p = await earner(30);
      const paid = await body(await pay(p, { amount: 10, reference: 'CSV-1' }), 201);
      const json = await body(await operator.api('GET', '/api/admin/reports/payouts-due'), 200);
      const row = (json.publishers as Json[]).find((r) => r.publisher_id === p.publisher.id);
      expect(row).toMatchObject({ unpaid_balance: 20, paid_total: 10 });
      expect(row?.last_payout_at).toBe(paid.created_at);

      const viaQuery = await operator.api('GET', '/api/admin/reports/payouts-due?format=csv');
      const viaAccept = await fetch(`${t.baseUrl}/api/admin/reports/payouts-due`, {
        headers: { authorization: `Bearer ${operator.token}`, accept: 'text/csv' },
      });
      for (const response of [viaQuery, viaAccept]) {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(response.headers.get('content-disposition')).toBe(
          'attachment; filename="payouts-due.csv"',
        );
        const [header, ...lines] = (await response.text())
          .split('\r\n')
          .filter((line) => line !== '')
          .map((line) => line.split(','));
        expect(header).toEqual([
          'publisher_id',
          'email',
          'name',
          'unpaid_balance',
          'earned_total',
          'paid_total',
          'last_payout_at',
        ]);
        expect(lines).toHaveLength((json.publishers as Json[]).length);
        expect(lines).toContainEqual([
          p.publisher.id,
          p.publisher.email,
          p.publisher.name,
          '20',
          '30',
          '10',
          paid.created_at,
        ]);
      }
      await expectProblem(
        await operator.api('GET', '/api/admin/reports/payouts-due?format=xml'),
        400,
        'validation_failed',
      );
    });
  });

  it('keeps the ledger balanced: spend = earnings + platform revenue, and earned − paid = unpaid', async () => {
    const publishers = [await earner(10), await earner(20), await earner(15)];
    await body(await pay(publishers[1], { amount: 7.5 }), 201);
    const voided = await body(await pay(publishers[2], { amount: 3 }), 201);
    await body(await voidIt(voided.id), 200);

    expect(await ledgerMicros(t, 'campaign_spend')).toBe(
      (await ledgerMicros(t, 'publisher_earnings')) + (await ledgerMicros(t, 'platform_revenue')),
    );
    for (const p of publishers) {
      const payouts = await t.dataSource.getRepository(Payout).findBy({
        publisherId: p.publisher.id,
      });
      const paidMicros = payouts
        .filter((x) => x.voidedAt === null)
        .reduce((total, x) => total + x.amountMicros, 0);
      const earnedMicros = await ledgerMicros(t, 'publisher_earnings', p.publisher.id);
      const balance = await body(await p.api('GET', '/api/publisher/balance'), 200);
      expect(balance.earned_total).toBe(earnedMicros / 1e6);
      expect(balance.paid_total).toBe(paidMicros / 1e6);
      expect(balance.unpaid_balance).toBe((earnedMicros - paidMicros) / 1e6);
    }
  });

  it('pays once when ten operators pay 60% of the balance at the same moment', async () => {
    const p = await earner(50);
    const operators = [operator, ...(await Promise.all([1, 2].map(() => t.f.signedInAdmin())))];

    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        operators[i % operators.length].api(
          'POST',
          payoutsOf(p),
          payout({ amount: 30, reference: `RACE-${i}` }),
        ),
      ),
    );

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      await expectProblem(response, 409, 'payout_exceeds_balance');
    }
    expect(await rows(p)).toBe(1);
    expect(await unpaid(p)).toBe(20);
  });
});
