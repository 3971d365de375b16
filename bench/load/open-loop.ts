import { Agent, request as httpRequest } from 'node:http';
import { createHistogram } from 'node:perf_hooks';
import { benchmarkAddress } from './addresses';
import { campaignLinkOf } from './links';
import type { LoadResult } from './load';

/**
 * The open-loop generator: what runs inside its own process (bench/load/open-loop-child.ts), one
 * or more streams of requests, each at a true fixed arrival rate. Request i of a stream is
 * due at start + i / rate, whatever happened to the ones before it, and its latency counts
 * from when it was due, so time spent queued behind a slow answer is measured rather than
 * hidden (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it gives each connection a quota per second, which the
 * connection spends back to back at the start of every second and then idles, so "half the
 * maximum rate" becomes full load for half of each second; and its latency correction for
 * rates assumes a 1 ms interval between requests. Both inflate the latency percentiles.
 *
 * Everything here crosses a process boundary as JSON, hence plain requests, not autocannon's.
 */

/** A request as sent; JSON, so that it can be handed to the generator's process. */
export interface RequestSpec {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface StreamSpec {
  name: string;
  /** Arrivals per second, evenly spaced. */
  rate: number;
  /** Most requests in flight at once (keep-alive sockets); later ones wait their turn. */
  connections: number;
  /** Sent in turn, request i being `requests[i % length]`. */
  requests: RequestSpec[];
  /**
   * Gives request i its own `X-Forwarded-For` address in 198.18.0.0/15 (RFC 2544's range for
   * benchmarks): people, not one address, follow ad links.
   */
  spreadAddresses?: boolean;
  /**
   * Keeps at most this many campaign links from the 2xx answers, for the click phases; answers
   * are parsed only until then, and drained unread after, so the generator's heap stays flat.
   */
  harvest?: number;
}

/**
 * One stream's figures over one run, latencies in ms to a tenth: those of a closed-loop phase
 * (its CPU shares aside) and the slowest answer.
 */
export type StreamFigures = Omit<LoadResult, 'cpu'> & { max: number };

export interface StreamResult {
  name: string;
  figures: StreamFigures;
  /** The campaign links harvested (`harvest`), as paths. */
  links: string[];
}

/** Runs every stream for `seconds`, all starting now; resolves when every request has settled. */
export async function runStreams(
  url: string,
  seconds: number,
  streams: StreamSpec[],
): Promise<StreamResult[]> {
  return Promise.all(streams.map((stream) => runStream(new URL(url), seconds, stream)));
}

/** Up to 60 s, to the microsecond: an HDR histogram (3 significant figures) of fixed size. */
const newHistogram = () => createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });

async function runStream(target: URL, seconds: number, stream: StreamSpec): Promise<StreamResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: stream.connections });
  const total = Math.max(1, Math.round(stream.rate * seconds));
  const intervalMs = 1000 / stream.rate;
  const latencies = newHistogram();
  const links: string[] = [];
  const wanted = stream.harvest ?? 0;
  const counts = { responses: 0, ok: 0, status3xx: 0, non2xx: 0, errors: 0, timeouts: 0 };
  let sent = 0;
  let settled = 0;
  const started = performance.now();

  await new Promise<void>((done) => {
    const send = (index: number) => {
      const due = started + index * intervalMs;
      const spec = stream.requests[index % stream.requests.length];
      const headers: Record<string, string | number> = { ...spec.headers };
      if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
      if (stream.spreadAddresses) headers['x-forwarded-for'] = benchmarkAddress(index);
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: spec.method,
          path: spec.path,
          headers,
          timeout: 30_000,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const keep = status >= 200 && status < 300 && links.length < wanted;
          const chunks: Buffer[] = [];
          if (keep) response.on('data', (chunk: Buffer) => chunks.push(chunk));
          else response.resume();
          response.on('end', () => {
            latencies.record(Math.max(1, Math.round((performance.now() - due) * 1000)));
            counts.responses++;
            if (status >= 200 && status < 300) counts.ok++;
            else if (status >= 300 && status < 400) counts.status3xx++;
            if (status < 200 || status >= 300) counts.non2xx++;
            if (keep) {
              const link = campaignLinkOf(Buffer.concat(chunks).toString());
              if (link !== null) links.push(link);
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
      req.end(spec.body);
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

  const elapsed = (performance.now() - started) / 1000;
  const ms = (micros: number) => Math.round(micros / 100) / 10;
  const at = (percentile: number) =>
    counts.responses === 0 ? 0 : ms(latencies.percentile(percentile));
  const figures: StreamFigures = {
    requestsPerSecond: counts.responses / elapsed,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: counts.responses === 0 ? 0 : ms(latencies.max),
    ...counts,
    seconds: elapsed,
  };
  return { name: stream.name, figures, links };
}
