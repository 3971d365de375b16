import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createAdlineClient } from '../../../clients/typescript/src';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** A TCP server that accepts connections and never answers: a hung ad server. */
async function silentServer(): Promise<{
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createTcpServer((socket) => {
    connections += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Adline's own answer to a failure inside it, as openapi.json documents it. */
const INTERNAL_ERROR = JSON.stringify({
  type: 'urn:adline:problem:internal',
  title: 'Internal server error',
  status: 500,
  code: 'internal',
  detail: 'An internal error occurred; retry with exponential backoff.',
});

/** An HTTP server that answers every request with Adline's 500, and counts the requests. */
async function failingServer(): Promise<{
  url: string;
  requests: () => number;
  close(): Promise<void>;
}> {
  let requests = 0;
  const server: HttpServer = createHttpServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(500, { 'content-type': 'application/problem+json' }).end(INTERNAL_ERROR);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const ask = {
  conversation: 'user: Which boots for a rainy hike in Scotland?',
  keywords: 'hiking boots',
};

describe(`the TypeScript client against the service (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;
  let campaignLinkPrefix: string;

  beforeAll(async () => {
    t = await startTestApp();
    // An operator makes the campaign and a publisher its key, both through the typed client.
    const operator = createAdlineClient({
      baseUrl: t.baseUrl,
      token: (await t.f.signedInAdmin()).token,
    });
    const advertiser = await operator.POST('/api/admin/advertisers', {
      body: { name: 'Highland Gear' },
    });
    if (!advertiser.data) throw new Error(`advertiser: ${advertiser.response.status}`);
    const campaign = await operator.POST('/api/admin/campaigns', {
      body: {
        advertiser_id: advertiser.data.id,
        name: 'Waterproof boots',
        text: 'Boots that stay dry in any bog.',
        target_url: 'https://highland.example/boots',
        keywords: ['hiking boots'],
        bid_per_click: 0.4,
      },
    });
    if (!campaign.data) throw new Error(`campaign: ${campaign.response.status}`);
    campaignLinkPrefix = `${t.baseUrl}/api/campaign_click?`;

    const publisher = await t.f.signedInPublisher();
    const asPublisher = createAdlineClient({ baseUrl: t.baseUrl, token: publisher.token });
    const created = await asPublisher.POST('/api/models/{id}/keys', {
      params: { path: { id: publisher.model.id } },
      body: { kind: 'test', label: 'client suite' },
    });
    if (!created.data) throw new Error(`key: ${created.response.status}`);
    key = created.data.key;
  });
  afterAll(() => t.close());

  it('sends the management routes the bearer token, and refuses them without it', async () => {
    const publisher = await t.f.signedInPublisher();
    const signedIn = createAdlineClient({ baseUrl: t.baseUrl, token: publisher.token });
    const models = await signedIn.GET('/api/models');
    expect(models.response.status).toBe(200);
    expect(models.data?.map((model) => model.id)).toEqual([publisher.model.id]);
    const anonymous = createAdlineClient({ baseUrl: t.baseUrl });
    expect((await anonymous.GET('/api/models')).response.status).toBe(401);
  });

  it('fetchAd answers the matching ad with its Markdown', async () => {
    const client = createAdlineClient({ baseUrl: t.baseUrl, apiKey: key });
    const ad = await client.fetchAd(ask);
    expect(ad).toMatchObject({ campaign_name: 'Waterproof boots', sponsored: true });
    expect(ad?.campaign_link.startsWith(campaignLinkPrefix)).toBe(true);
    expect(ad?.campaign_markdown).toContain('Boots that stay dry in any bog');
    expect(ad?.campaign_markdown).toContain(`](${ad?.campaign_link})`);
  });

  it('fetchAd sends messages as the conversation', async () => {
    const client = createAdlineClient({ baseUrl: t.baseUrl, apiKey: key });
    const ad = await client.fetchAd({
      messages: [
        { role: 'user', content: 'I hike in Scotland.' },
        { role: 'assistant', content: 'Bring waterproofs.' },
        { role: 'user', content: 'And boots?' },
      ],
      keywords: ['hiking boots'],
      locale: 'de',
      explain: true,
    });
    expect(ad?.campaign_name).toBe('Waterproof boots');
    expect(ad?.explanation).toBeDefined();
  });

  it('fetchAd answers null when nothing matches, and the breaker stays closed', async () => {
    const client = createAdlineClient({
      baseUrl: t.baseUrl,
      apiKey: key,
      breaker: { failureThreshold: 1 },
    });
    expect(
      await client.fetchAd({ conversation: 'Tell me a joke', keywords: 'knock knock' }),
    ).toBeNull();
    expect(client.isBreakerOpen()).toBe(false);
    expect((await client.fetchAd(ask))?.campaign_name).toBe('Waterproof boots');
  });

  it('fetchAd answers null, and reports why, for a wrong key', async () => {
    const errors: unknown[] = [];
    const client = createAdlineClient({
      baseUrl: t.baseUrl,
      apiKey: 'adl_test_not_a_key',
      onError: (error) => errors.push(error.status),
    });
    expect(await client.fetchAd(ask)).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeGreaterThanOrEqual(400);
  });

  describe('when the ad server fails', () => {
    const closers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      await Promise.all(closers.splice(0).map((close) => close()));
    });

    it('answers null at the timeout (default 800 ms) when the server accepts and never answers', async () => {
      const server = await silentServer();
      closers.push(server.close);
      const client = createAdlineClient({ baseUrl: server.url, apiKey: key });
      const { value, ms } = await timed(() => client.fetchAd(ask));
      expect(value).toBeNull();
      expect(server.connections()).toBe(1);
      expect(ms).toBeGreaterThanOrEqual(790);
      expect(ms).toBeLessThan(800 + 100);
    });

    it('answers null at once when the server answers 500', async () => {
      const server = await failingServer();
      closers.push(server.close);
      const client = createAdlineClient({ baseUrl: server.url, apiKey: key });
      const { value, ms } = await timed(() => client.fetchAd(ask));
      expect(value).toBeNull();
      expect(server.requests()).toBe(1);
      expect(ms).toBeLessThan(200);
    });

    it('opens the breaker after N failures (no more requests, null at once) and closes it after M seconds', async () => {
      const server = await failingServer();
      closers.push(server.close);
      const client = createAdlineClient({
        baseUrl: server.url,
        apiKey: key,
        breaker: { failureThreshold: 3, cooldownSeconds: 0.5 },
      });
      for (let call = 1; call <= 3; call += 1) expect(await client.fetchAd(ask)).toBeNull();
      expect(server.requests()).toBe(3);
      expect(client.isBreakerOpen()).toBe(true);

      const skipped = await timed(() => client.fetchAd(ask));
      expect(skipped.value).toBeNull();
      expect(skipped.ms).toBeLessThan(20);
      await client.fetchAd(ask);
      expect(server.requests()).toBe(3);

      await new Promise((resolve) => setTimeout(resolve, 550));
      expect(client.isBreakerOpen()).toBe(false);
      expect(await client.fetchAd(ask)).toBeNull();
      expect(server.requests()).toBe(4);
      // Still failing: one more failure opens it again at once.
      expect(client.isBreakerOpen()).toBe(true);
    });

    it('each client has its own breaker', async () => {
      const server = await failingServer();
      closers.push(server.close);
      const broken = createAdlineClient({
        baseUrl: server.url,
        apiKey: key,
        breaker: { failureThreshold: 1 },
      });
      await broken.fetchAd(ask);
      expect(broken.isBreakerOpen()).toBe(true);
      const healthy = createAdlineClient({
        baseUrl: t.baseUrl,
        apiKey: key,
        breaker: { failureThreshold: 1 },
      });
      expect((await healthy.fetchAd(ask))?.campaign_name).toBe('Waterproof boots');
    });

    it('closes the breaker again once the service answers', async () => {
      const server = await failingServer();
      closers.push(server.close);
      let baseUrl = server.url;
      // A fetch that follows `baseUrl`, so one client meets a failing, then a healthy server.
      const client = createAdlineClient({
        baseUrl: 'http://adline.invalid',
        apiKey: key,
        breaker: { failureThreshold: 2, cooldownSeconds: 0.2 },
        fetch: (request) =>
          fetch(new Request(request.url.replace('http://adline.invalid', baseUrl), request)),
      });
      await client.fetchAd(ask);
      await client.fetchAd(ask);
      expect(client.isBreakerOpen()).toBe(true);
      baseUrl = t.baseUrl;
      expect(await client.fetchAd(ask)).toBeNull(); // still open: not even asked
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await client.fetchAd(ask))?.campaign_name).toBe('Waterproof boots');
      expect(client.isBreakerOpen()).toBe(false);
      expect(server.requests()).toBe(2);
    });
  });
});
