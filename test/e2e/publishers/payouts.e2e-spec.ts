import { microsToUnits } from '@/common/money';
import type { SignedIn, SignedInPublisher } from '@test/factories';
import { body } from '@test/support/operator-api';
import { earnClicks, ledgerMicros } from '@test/support/payouts';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`a publisher's balance and payouts (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;

  beforeAll(async () => {
    t = await startTestApp({ PAYOUT_THRESHOLD: '20' });
    operator = await t.f.signedInAdmin();
  });
  afterAll(() => t.close());

  const pay = async (p: SignedInPublisher, amount: number, reference: string) =>
    body(
      await operator.api('POST', `/api/admin/publishers/${p.publisher.id}/payouts`, {
        amount,
        period_start: '2026-11-01',
        period_end: '2026-11-30',
        method: 'paypal',
        reference,
      }),
      201,
    );

  it('shows what the ledger says it earned, all unpaid, and not due below the threshold', async () => {
    const p = await t.f.signedInPublisher({ revenueShare: 0.7 });
    await earnClicks(t, p.key, 2, '10');

    const balance = await body(await p.api('GET', '/api/publisher/balance'), 200);

    const earned = await ledgerMicros(t, 'publisher_earnings', p.publisher.id);
    expect(earned).toBe(14_000_000);
    expect(balance).toEqual({
      currency: 'USD',
      earned_total: microsToUnits(earned),
      paid_total: 0,
      unpaid_balance: 14,
      payout_threshold: 20,
      revenue_share: 0.7,
      due: false,
    });
  });

  it('is due once the unpaid balance reaches the threshold, and a payout lowers it', async () => {
    const p = await t.f.signedInPublisher({ revenueShare: 0.5 });
    await earnClicks(t, p.key, 4, '10');
    expect(await body(await p.api('GET', '/api/publisher/balance'), 200)).toMatchObject({
      earned_total: 20,
      unpaid_balance: 20,
      due: true,
    });

    await pay(p, 12.5, 'PP-1');

    expect(await body(await p.api('GET', '/api/publisher/balance'), 200)).toMatchObject({
      earned_total: 20,
      paid_total: 12.5,
      unpaid_balance: 7.5,
      due: false,
    });
  });

  it('lists only its own payouts, newest first, voided ones with their reason', async () => {
    const p = await t.f.signedInPublisher();
    const other = await t.f.signedInPublisher();
    await earnClicks(t, p.key, 3);
    await earnClicks(t, other.key, 1);
    const first = await pay(p, 1, 'first');
    const second = await pay(p, 2, 'second');
    await pay(other, 1, 'other');
    await operator.api('POST', `/api/admin/payouts/${first.id as string}/void`, {
      reason: 'Sent to the wrong account',
    });

    const { payouts } = await body(await p.api('GET', '/api/publisher/payouts'), 200);

    expect(payouts).toEqual([
      {
        ...second,
        status: 'paid',
        voided_at: null,
        void_reason: null,
      },
      {
        ...first,
        status: 'voided',
        voided_at: expect.any(String),
        void_reason: 'Sent to the wrong account',
      },
    ]);
    expect(second).toMatchObject({
      publisher_id: p.publisher.id,
      amount: 2,
      currency: 'USD',
      period_start: '2026-11-01',
      period_end: '2026-11-30',
      method: 'paypal',
      reference: 'second',
    });
    expect((await body(await other.api('GET', '/api/publisher/payouts'), 200)).payouts).toEqual([
      expect.objectContaining({ reference: 'other' }),
    ]);
  });

  it('cannot call the operators’ payout routes', async () => {
    const p = await t.f.signedInPublisher();
    await earnClicks(t, p.key, 1);
    const own = `/api/admin/publishers/${p.publisher.id}/payouts`;
    const payout = {
      amount: 1,
      period_start: '2026-11-01',
      period_end: '2026-11-30',
      method: 'paypal',
      reference: 'self-paid',
    };
    await expectProblem(await p.api('POST', own, payout), 403, 'forbidden');
    await expectProblem(await p.api('GET', own), 403, 'forbidden');
    await expectProblem(await p.api('GET', '/api/admin/reports/payouts-due'), 403, 'forbidden');
    const paid = await pay(p, 1, 'real');
    await expectProblem(
      await p.api('POST', `/api/admin/payouts/${paid.id as string}/void`, { reason: 'mine' }),
      403,
      'forbidden',
    );
    expect((await body(await p.api('GET', '/api/publisher/payouts'), 200)).payouts).toEqual([
      expect.objectContaining({ reference: 'real', status: 'paid' }),
    ]);
  });

  it('needs a session', async () => {
    await expectProblem(await t.http('/api/publisher/balance'), 401, 'unauthorized');
    await expectProblem(await t.http('/api/publisher/payouts'), 401, 'unauthorized');
  });
});
