import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { log } from '../common/log';
import { ROOT } from '../common/options';
import type { MatcherResult } from './matcher';

/** The matcher micro-benchmark, one child process per size, so sizes do not share a heap. */
export function measureMatcher(sizes: number[]): MatcherResult[] {
  return sizes.map((size) => {
    log(`matcher micro-benchmark at ${size} campaigns`);
    const out = execFileSync(
      process.execPath,
      [
        '--max-old-space-size=4096',
        join(ROOT, 'dist', 'bench', 'matcher', 'matcher.js'),
        String(size),
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    const result = JSON.parse(out.trim().split('\n').pop() as string) as MatcherResult;
    log(
      `  p50 ${result.p50.toFixed(1)} µs, p99 ${result.p99.toFixed(1)} µs, build ${result.buildSeconds.toFixed(1)} s`,
    );
    return result;
  });
}
