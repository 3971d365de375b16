/**
 * The service's own timings over a phase, from its Prometheus histograms (`GET /metrics`,
 * scraped just before and just after the phase): how long it took to answer fetch-ads from
 * when Fastify received the request, and how long its impression and click batches took to
 * commit. With the two event loops, this tells a stall of the database's commits (the third
 * party every ad waits for) from one of the service or the generator.
 *
 * The buckets are the service's (1, 2.5, 5, 10, 25, 50, 100, 250 ms…), so a percentile is an
 * upper bound: "p99 ≤ 50 ms".
 */

/** Upper bounds in ms; null when the percentile lies beyond the last bucket (over 10 s). */
export interface Timing {
  count: number;
  p50: number | null;
  p99: number | null;
  slowest: number | null;
}

export interface ServiceTimings {
  /** From Fastify receiving the request to the answer sent, every status. */
  fetchAds: Timing | null;
  impressionCommits: Timing | null;
  clickCommits: Timing | null;
}

/** The exposition text, or null when metrics are off or unreachable. */
export async function scrapeMetrics(url: string): Promise<string | null> {
  try {
    const response = await fetch(`${url}/metrics`);
    return response.ok ? await response.text() : null;
  } catch {
    return null;
  }
}

export function timingsBetween(before: string | null, after: string | null): ServiceTimings {
  const timing = (name: string, label: string) =>
    before === null || after === null
      ? null
      : percentiles(subtract(buckets(after, name, label), buckets(before, name, label)));
  return {
    fetchAds: timing('adline_http_request_duration_seconds', 'route="/api/fetch-ads"'),
    impressionCommits: timing('adline_batch_commit_duration_seconds', 'writer="impressions"'),
    clickCommits: timing('adline_batch_commit_duration_seconds', 'writer="clicks"'),
  };
}

/** Cumulative counts by upper bound (seconds), summed over the series carrying `label`. */
function buckets(text: string, name: string, label: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`) || !line.includes(label)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    counts.set(bound, (counts.get(bound) ?? 0) + value);
  }
  return counts;
}

function subtract(after: Map<number, number>, before: Map<number, number>): Map<number, number> {
  return new Map([...after].map(([bound, n]) => [bound, n - (before.get(bound) ?? 0)]));
}

function percentiles(cumulative: Map<number, number>): Timing | null {
  const bounds = [...cumulative.keys()].sort((a, b) => a - b);
  const count = cumulative.get(Infinity) ?? 0;
  if (count === 0) return null;
  const upTo = (share: number) => {
    const bound = bounds.find((b) => (cumulative.get(b) ?? 0) >= share * count) ?? Infinity;
    return bound === Infinity ? null : bound * 1000;
  };
  return { count, p50: upTo(0.5), p99: upTo(0.99), slowest: upTo(1) };
}
