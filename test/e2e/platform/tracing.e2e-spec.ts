import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ask } from '@test/support/ads';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';
import { ROOT } from '@test/support/paths';

interface Span {
  traceId: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface ExportRequest {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: Span[] }[] }[];
}
/** OTLP's SpanKind: SERVER. */
const SERVER = 2;

/** A collector: receives OTLP/HTTP JSON exports on /v1/traces. */
async function startCollector(): Promise<{
  url: string;
  spans: () => (Span & { scope: string })[];
  server: Server;
}> {
  const received: ExportRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (request.url === '/v1/traces') received.push(JSON.parse(body.toString()) as ExportRequest);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    spans: () =>
      received.flatMap((r) =>
        r.resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((span) => ({ ...span, scope: ss.scope.name })),
          ),
        ),
      ),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs the service as production does (from source), serves one ad, stops it with SIGTERM
 * and returns the modules it had loaded by then, as a preload reports them at exit.
 */
async function serveOneAd(
  env: Record<string, string>,
): Promise<{ loaded: string[]; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'adline-tracing-'));
  const report = join(dir, 'modules.json');
  const preload = join(dir, 'report-modules.js');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));`,
  );
  const db = await createTestDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['-r', './test/support/ts-register.js', '-r', preload, 'src/main.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        PORT: String(port),
        BASE_URL: base,
        DATABASE_URL: db.url,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const started = Date.now();
    while (!stdout.includes('Fetch an ad:')) {
      if (Date.now() - started > 30_000) throw new Error(`no start-up: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const key = /demo API key \(model [^)]+\): (\S+)/.exec(stdout)![1];
    const ad = await fetch(`${base}/api/fetch-ads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-api-key': key },
      body: JSON.stringify(ask('gpu, machine learning')),
    });
    expect(ad.status).toBe(200);
    child.kill('SIGTERM');
    const code = await exited;
    return { loaded: JSON.parse(readFileSync(report, 'utf8')) as string[], code };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

/**
 * OpenTelemetry modules loaded, but for its API: prom-client (/metrics) requires that no-op
 * facade for exemplars whatever tracing does; the SDK and instrumentations are what count.
 */
const openTelemetry = (loaded: string[]) =>
  loaded.filter(
    (file) =>
      file.includes(join('node_modules', '@opentelemetry')) &&
      !file.includes(join('node_modules', '@opentelemetry', 'api', '')),
  );

describe(`tracing (${testDatabaseKind()})`, () => {
  it('loads no OpenTelemetry module when OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
    const { loaded, code } = await serveOneAd({});
    expect(code).toBe(0);
    // The report works: the service's own modules are in it.
    expect(loaded.some((file) => file.includes(join('node_modules', 'fastify')))).toBe(true);
    expect(openTelemetry(loaded)).toEqual([]);
  }, 60_000);

  it('sends the spans of a fetch-ads call to the OTLP endpoint when it is set', async () => {
    const collector = await startCollector();
    try {
      const { loaded, code } = await serveOneAd({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      expect(code).toBe(0);
      expect(openTelemetry(loaded).length).toBeGreaterThan(0);
      // Sent at the latest when the shutdown flushes them.
      const spans = collector.spans();
      const attribute = (span: Span, key: string) =>
        span.attributes.find((a) => a.key === key)?.value;
      const fetchAds = spans.filter(
        (s) => s.kind === SERVER && attribute(s, 'url.path')?.stringValue === '/api/fetch-ads',
      );
      expect(fetchAds).toHaveLength(1);
      expect(attribute(fetchAds[0], 'http.response.status_code')).toEqual({ intValue: 200 });
      if (testDatabaseKind() === 'mysql') {
        // The call's own statements (its key lookup, its impression) are in its trace.
        const statements = spans.filter(
          (s) => s.scope.includes('mysql2') && s.traceId === fetchAds[0].traceId,
        );
        expect(statements.length).toBeGreaterThan(0);
        console.log(`fetch-ads trace: ${statements.map((s) => s.name).join(', ')}`);
      }
      console.log(
        `spans received: ${spans.length}, by scope: ${JSON.stringify(
          spans.reduce<Record<string, number>>(
            (n, s) => ({ ...n, [s.scope]: (n[s.scope] ?? 0) + 1 }),
            {},
          ),
        )}`,
      );
    } finally {
      collector.server.close();
    }
  }, 60_000);
});
