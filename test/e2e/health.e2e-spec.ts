import { startTestApp, TestApp } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';
import { expectProblem } from '../support/problem';

describe(`health and unknown routes (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports live and ready while the database answers', async () => {
    expect(await (await t.http('/health/live')).json()).toEqual({ status: 'ok' });
    expect(await (await t.http('/health/ready')).json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown route with a 404 problem', async () => {
    await expectProblem(await t.http('/api/nope'), 404, 'not_found');
  });

  it('keeps a sane caller-supplied x-request-id and replaces an unsafe one', async () => {
    const kept = await t.http('/health/live', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await t.http('/health/live', { headers: { 'x-request-id': 'a b<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
