import { ModelsService } from '@/publishers/models.service';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** Secrets and words a client sends; none may reach the log, under any name. */
const CANARY = {
  badKey: 'sk_canary_key_5d1b0c7e9a',
  bearer: 'canary-bearer-token-83f2a9',
  cookie: 'canary-cookie-session-c4e61d',
  password: 'Canary Password 7b2e90 kept secret',
  wrongPassword: 'Canary Wrong Password 1f7c33',
  conversation: 'canary question about a quiet gpu for my flat 9d4e',
  sqlValue: 'canary-sql-parameter-a17f52',
};

interface LogLine {
  level: string;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string | null;
  status?: number;
  durationMs?: number;
  modelId?: string;
  err?: { message?: string; stack?: string };
  context?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`logs: JSON lines, one access line per request, no secrets (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let log = '';
  const lines = () =>
    log
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  const accessLinesOf = (requestId: string) =>
    lines().filter((line) => line.requestId === requestId && line.msg === 'request completed');
  /** The access line is written once the answer is sent, so it may come just after it. */
  async function accessLineOf(requestId: string): Promise<LogLine> {
    const deadline = Date.now() + 10_000;
    while (accessLinesOf(requestId).length === 0) {
      if (Date.now() > deadline) throw new Error(`no access line for ${requestId}:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const found = accessLinesOf(requestId);
    expect(found).toHaveLength(1);
    return found[0];
  }

  let sent = 0;
  /** A request with its own X-Request-Id, so its access line can be found. */
  async function send(path: string, init: RequestInit = {}) {
    sent += 1;
    const requestId = `logging-test-${sent}`;
    const headers = new Headers(init.headers);
    headers.set('x-request-id', requestId);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    const response = await t.http(path, { ...init, headers, redirect: 'manual' });
    expect(response.headers.get('x-request-id')).toBe(requestId);
    return { response, requestId };
  }
  const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

  beforeAll(async () => {
    t = await startTestApp(
      // `info` shows Nest's own lines too: more places a secret could slip into.
      { LOG_LEVEL: 'log', ACCESS_LOG: 'true' },
      { logDestination: { write: (chunk: string) => void (log += chunk) } },
    );
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('writes one access line per request with its route pattern, status, duration and ids', async () => {
    const { key, model } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'gpu, machine learning', bid: '0.40' });

    const keyless = await send(
      '/api/fetch-ads',
      json({ conversation: CANARY.conversation, context_keywords: 'gpu' }),
    );
    expect(keyless.response.status).toBe(404);
    const keylessLine = await accessLineOf(keyless.requestId);
    expect(keylessLine).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/api/fetch-ads',
      status: 404,
    });
    // No key, no model: the model id is written only once the key named one.
    expect(keylessLine).not.toHaveProperty('modelId');

    const withKey = await send('/api/fetch-ads', {
      ...json({ conversation: CANARY.conversation, context_keywords: 'gpu' }),
      headers: { 'service-api-key': key },
    });
    expect(withKey.response.status).toBe(200);
    const served = (await withKey.response.json()) as {
      advertisements: { campaign_link: string }[];
    };
    const fetchLine = await accessLineOf(withKey.requestId);
    expect(fetchLine).toMatchObject({ route: '/api/fetch-ads', status: 200, modelId: model.id });
    expect(typeof fetchLine.durationMs).toBe('number');
    expect(fetchLine.durationMs).toBeGreaterThanOrEqual(0);
    expect(fetchLine.durationMs).toBeLessThan(30_000);

    const click = await send(
      new URL(served.advertisements[0].campaign_link).href.slice(t.baseUrl.length),
    );
    expect(click.response.status).toBe(302);
    expect(await accessLineOf(click.requestId)).toMatchObject({
      method: 'GET',
      route: '/api/campaign_click',
      status: 302,
    });

    const model404 = await send(`/api/models/${model.id}`, {
      headers: { authorization: `Bearer ${CANARY.bearer}` },
    });
    expect(model404.response.status).toBe(401);
    const modelLine = await accessLineOf(model404.requestId);
    expect(modelLine).toMatchObject({ method: 'GET', route: '/api/models/:id', status: 401 });
    expect(modelLine).not.toHaveProperty('modelId');

    // No route: no pattern to name (the raw path is the client's, and may hold anything).
    const unknown = await send('/no/such/page');
    expect(unknown.response.status).toBe(404);
    expect(await accessLineOf(unknown.requestId)).toMatchObject({ route: null, status: 404 });
    // Refused by the router before any hook runs, and still one line.
    const badUrl = await send('/api/models/%zz');
    expect(badUrl.response.status).toBe(400);
    expect(await accessLineOf(badUrl.requestId)).toMatchObject({ route: null, status: 400 });
  });

  it('keeps a sane X-Request-Id, and replaces and returns an unusable one', async () => {
    const response = await t.http('/health/live', { headers: { 'x-request-id': 'not sane!' } });
    const given = response.headers.get('x-request-id')!;
    expect(given).toMatch(UUID);
    expect(await accessLineOf(given)).toMatchObject({ route: '/health/live', status: 200 });
  });

  it('logs a fault once, at error, with its request id and stack', async () => {
    const { token, model } = await t.f.signedInPublisher();
    jest
      .spyOn(ModelsService.prototype, 'get')
      .mockRejectedValueOnce(
        Object.assign(new Error('model read broke'), { parameters: [CANARY.sqlValue] }),
      );
    const failed = await send(`/api/models/${model.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(failed.response.status).toBe(500);
    expect(await accessLineOf(failed.requestId)).toMatchObject({ status: 500 });
    const errors = lines().filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      requestId: failed.requestId,
      route: '/api/models/:id',
      msg: 'request failed',
      err: { message: 'model read broke' },
    });
    expect(errors[0].err?.stack).toContain('model read broke');
  });

  it('never writes a key, token, password, cookie or conversation text', async () => {
    const { key, token } = await t.f.signedInPublisher();
    const email = `canary-${Date.now()}@example.test`;
    const registered = await send(
      '/api/auth/register',
      json({ email, password: CANARY.password, name: 'Canary Publishing' }),
    );
    expect(registered.response.status).toBe(201);
    const session = (await registered.response.json()) as { access_token: string };
    const wrong = await send('/api/auth/login', json({ email, password: CANARY.wrongPassword }));
    expect(wrong.response.status).toBe(401);
    const right = await send('/api/auth/login', json({ email, password: CANARY.password }));
    expect(right.response.status).toBe(200);
    const cookie = await send('/api/models', {
      headers: { cookie: `adline_session=${CANARY.cookie}` },
    });
    expect(cookie.response.status).toBe(401);
    const badKey = await send('/api/fetch-ads', {
      ...json({ conversation: CANARY.conversation, context_keywords: 'gpu' }),
      headers: { 'service-api-key': CANARY.badKey },
    });
    expect(badKey.response.status).toBe(404);
    const invalid = await send('/api/fetch-ads', {
      ...json({ conversation: 42, context_keywords: CANARY.conversation }),
      headers: { 'service-api-key': key },
    });
    expect(invalid.response.status).toBe(400);
    const listed = await send('/api/models', { headers: { authorization: `Bearer ${token}` } });
    expect(listed.response.status).toBe(200);
    for (const { requestId } of [registered, wrong, right, cookie, badKey, invalid, listed]) {
      await accessLineOf(requestId);
    }

    const secrets = [...Object.values(CANARY), key, token, session.access_token];
    for (const secret of secrets) expect(log).not.toContain(secret);
    // Every line of the run, start-up included, is one JSON object; Nest's own lines too.
    expect(lines().length).toBeGreaterThan(sent);
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 'info', context: 'NestApplication' }),
    );
    // One access line per request sent, none twice.
    const accessIds = lines()
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.requestId);
    for (let n = 1; n <= sent; n += 1) {
      expect(accessIds.filter((id) => id === `logging-test-${n}`)).toHaveLength(1);
    }
  });
});
