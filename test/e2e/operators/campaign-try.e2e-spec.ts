import type { SignedIn } from '@test/factories';
import { body, campaignCalls, type Json, operatorWithAdvertiser } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { Impression } from '@/tracking/entities/impression.entity';

describe(`operator API: trying a campaign on a conversation (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ operator, advertiserId } = await operatorWithAdvertiser(t));
  });
  afterAll(() => t.close());

  const { create, patch } = campaignCalls(() => ({ t, operator, advertiserId }));
  const tryIt = (id: unknown, request: Json) =>
    operator.api('POST', `/api/admin/campaigns/${String(id)}/try`, request);

  it('says the campaign would be served, with its relevance and the keywords it matched', async () => {
    const campaign = await create({
      keywords: ['espresso machine', 'grinder'],
      bid_per_click: 0.5,
    });
    const answer = await body(
      await tryIt(campaign.id, {
        conversation: 'Which espresso machine should I buy for my kitchen?',
        context_keywords: 'espresso machine',
        user_location: 'DE',
      }),
      200,
    );
    expect(answer).toMatchObject({
      would_serve: true,
      relevance: expect.any(Number),
      explanation: {
        matched_keywords: [
          expect.objectContaining({ keyword: 'espresso machine', match: 'exact' }),
        ],
        targeting: { country: 'DE' },
        bid: 0.5,
      },
    });
    expect(answer.reason).toBeUndefined();
  });

  it('says why not: no match, targeted elsewhere, outranked, paused', async () => {
    const campaign = await create({ keywords: ['kayak paddle'], countries: ['FR'] });
    const noMatch = await body(
      await tryIt(campaign.id, { conversation: 'hi', context_keywords: 'tents' }),
      200,
    );
    expect(noMatch).toEqual({ would_serve: false, reason: 'no_match' });
    const elsewhere = await body(
      await tryIt(campaign.id, {
        conversation: 'hi',
        context_keywords: 'kayak paddle',
        user_location: 'DE',
      }),
      200,
    );
    expect(elsewhere).toEqual({ would_serve: false, reason: 'no_targeted_match' });

    const cheap = await create({ keywords: ['camping stove'], bid_per_click: 0.1 });
    await create({ keywords: ['camping stove'], bid_per_click: 2 });
    const outranked = await body(
      await tryIt(cheap.id, { conversation: 'hi', context_keywords: 'camping stove' }),
      200,
    );
    expect(outranked).toMatchObject({
      would_serve: false,
      reason: 'outranked',
      winning_score: expect.any(Number),
    });

    expect((await patch(cheap.id, { status: 'paused' })).status).toBe(200);
    const paused = await body(
      await tryIt(cheap.id, { conversation: 'hi', context_keywords: 'camping stove' }),
      200,
    );
    expect(paused).toEqual({ would_serve: false, reason: 'campaign_paused' });
  });

  it('refuses a sensitive topic, as fetch-ads does', async () => {
    const campaign = await create({ keywords: ['sleep tea'] });
    const answer = await body(
      await tryIt(campaign.id, {
        conversation: "Honestly I've been thinking about suicide a lot lately.",
        context_keywords: 'sleep tea',
      }),
      200,
    );
    expect(answer).toEqual({ would_serve: false, reason: 'sensitive_topic' });
  });

  it('records no impression', async () => {
    const campaign = await create({ keywords: ['trail shoes'] });
    const before = await t.dataSource.getRepository(Impression).count();
    for (let i = 0; i < 3; i++) {
      await body(
        await tryIt(campaign.id, { conversation: 'hi', context_keywords: 'trail shoes' }),
        200,
      );
    }
    expect(await t.dataSource.getRepository(Impression).count()).toBe(before);
  });

  it('answers 404 for an unknown campaign and 400 for a body without keywords', async () => {
    await expectProblem(
      await tryIt('nope', { conversation: 'hi', context_keywords: 'x' }),
      404,
      'campaign_not_found',
    );
    const campaign = await create();
    const problem = await expectProblem(
      await tryIt(campaign.id, { conversation: 'hi' }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toContain('context_keywords');
  });

  it('answers 403 to a publisher', async () => {
    const campaign = await create();
    const publisher = await t.f.signedInPublisher();
    await expectProblem(
      await publisher.api('POST', `/api/admin/campaigns/${String(campaign.id)}/try`, {
        conversation: 'hi',
        context_keywords: 'x',
      }),
      403,
      'forbidden',
    );
  });
});
