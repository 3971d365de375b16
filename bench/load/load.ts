import autocannon, { type Request, type Result } from 'autocannon';
import { measureCpu } from '../measure/cpu';

/** One load phase's figures, whatever it measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  responses: number;
  ok: number;
  status3xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  /** % of one core used during the phase by the service, the database and the load generator. */
  cpu: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  requests: Request[];
  connections: number;
  /** Exactly this many requests, each one answered before the phase ends (exact accounting). */
  amount: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const { result, cpu } = await measureCpu(() => runAutocannon(options));
  const responses = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const seconds = result.duration;
  return {
    requestsPerSecond: responses / seconds,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    responses,
    ok: result['2xx'],
    status3xx: result['3xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
    cpu,
  };
}

function runAutocannon(options: LoadOptions): Promise<Result> {
  return autocannon({
    url: options.url,
    requests: options.requests,
    connections: Math.min(options.connections, options.amount),
    pipelining: 1,
    amount: options.amount,
    timeout: 30,
  });
}

/**
 * A closed-loop phase of at least about `seconds`: it asks for `margin` × the expected rate
 * × seconds requests, so that it ends with every request answered (exact accounting) and,
 * as a warm service runs faster than the phase that estimated its rate, not too early.
 */
export async function closedLoop(
  base: Omit<LoadOptions, 'amount'>,
  seconds: number,
  expectedRate: number,
  margin = 1.3,
): Promise<LoadResult> {
  const amount = Math.round(expectedRate * seconds * margin);
  return load({ ...base, amount: Math.max(base.connections, amount) });
}

/** Adds the figures of several phases (for accounting: responses, 2xx, errors). */
export function sum(
  results: LoadResult[],
): Pick<LoadResult, 'responses' | 'ok' | 'status3xx' | 'errors' | 'timeouts'> {
  return results.reduce(
    (total, r) => ({
      responses: total.responses + r.responses,
      ok: total.ok + r.ok,
      status3xx: total.status3xx + r.status3xx,
      errors: total.errors + r.errors,
      timeouts: total.timeouts + r.timeouts,
    }),
    { responses: 0, ok: 0, status3xx: 0, errors: 0, timeouts: 0 },
  );
}
