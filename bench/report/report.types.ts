import type { Baselines } from '../baselines/baselines';
import type { Options } from '../common/options';
import type { MatcherResult } from '../matcher/matcher';
import type { FetchPhase } from '../service/service-phases';
import type { ServiceRun } from '../service/service-run';

/**
 * What one `npm run bench` measured, as the report's tables read it. Its own file, so that
 * the tables (report.ts, goals.ts, stall-table.ts) share it without importing each other.
 */
export interface Report {
  options: Options;
  machine: string[];
  seeds: { campaigns: number; seconds: number }[];
  baselines: Baselines | null;
  runs: ServiceRun[];
  withoutThrottler: FetchPhase | null;
  /** Closed-loop phases beside the main run's: access log and metrics on, and both off. */
  observability: { on: FetchPhase[]; off: FetchPhase[] } | null;
  matcher: MatcherResult[];
  seconds: number;
}
