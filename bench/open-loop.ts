import type { Request } from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { measureCpu } from './cpu';
import type { LoadResult } from './load';

export interface OpenLoopOptions {
  url: string;
  requests: Request[];
  /** Most requests in flight at once (keep-alive sockets). */
  connections: number;
  /** Arrivals per second, evenly spaced. */
  rate: number;
  seconds: number;
}

/**
 * A true fixed arrival rate: request i is due at start + i / rate, whatever happened to the
 * ones before it, and its latency counts from when it was due, so time spent queued behind a
 * slow answer is measured rather than hidden (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it gives each connection a quota per second, which the
 * connection spends back to back at the start of every second and then idles, so "half the
 * maximum rate" becomes full load for half of each second; and its latency correction for
 * rates assumes a 1 ms interval between requests. Both inflate the latency percentiles.
 */
export async function openLoop(options: OpenLoopOptions): Promise<LoadResult> {
  const { result, cpu } = await measureCpu(() => run(options));
  return { ...result, cpu };
}

async function run(options: OpenLoopOptions): Promise<Omit<LoadResult, 'cpu'>> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  const counts = { ok: 0, status3xx: 0, non2xx: 0, errors: 0, timeouts: 0 };
  let sent = 0;
  let settled = 0;
  const started = performance.now();

  await new Promise<void>((done) => {
    const send = (index: number) => {
      const due = started + index * intervalMs;
      const spec = options.requests[index % options.requests.length];
      const body = typeof spec.body === 'string' ? spec.body : undefined;
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: spec.method ?? 'GET',
          path: spec.path ?? '/',
          headers: {
            ...(spec.headers as Record<string, string> | undefined),
            ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
          },
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            latencies.push(performance.now() - due);
            if (status >= 200 && status < 300) counts.ok++;
            else if (status >= 300 && status < 400) counts.status3xx++;
            if (status < 200 || status >= 300) counts.non2xx++;
            if (typeof spec.onResponse === 'function') {
              spec.onResponse(status, Buffer.concat(chunks).toString(), {}, response.headers);
            }
            finish();
          });
        },
      );
      req.on('timeout', () => {
        counts.timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        counts.errors++;
        finish();
      });
      req.end(body);
    };
    const finish = () => {
      settled++;
      if (settled === total) done();
    };
    // Every millisecond, send what has fallen due since: evenly spaced at any rate.
    const ticker = setInterval(() => {
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (sent < due) send(sent++);
      if (sent === total) clearInterval(ticker);
    }, 1);
  });
  agent.destroy();

  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  // In ms to a tenth: at low load the interesting figures are a few milliseconds.
  const at = (share: number) =>
    latencies.length === 0
      ? 0
      : Math.round(
          10 * latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))],
        ) / 10;
  const responses = latencies.length;
  return {
    requestsPerSecond: responses / seconds,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    p999: at(0.999),
    responses,
    ...counts,
    seconds,
  };
}
