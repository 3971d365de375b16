import { join } from 'node:path';

/** The command line of `npm run bench`, and the fixed settings its phases share. */

export const ROOT = join(__dirname, '..', '..', '..');
export const SERVICE_PORT = 3311;
export const BARE_PORT = 3312;
export const INSERT_BATCH = 500;
/** The service's CLICK_SIGNING_SECRET: the benchmark signs click ids with it too. */
export const CLICK_SIGNING_SECRET = 'bench-click-signing-secret-0123456789abcdef';
/**
 * Measured closed-loop phases ask for twice the requests the warm-up's rate would answer in
 * the measured time: a phase must last at least that long, and warm services speed up.
 */
export const MEASURE_MARGIN = 2;

export interface Options {
  campaigns: number[];
  sqlite: boolean;
  warmup: number;
  measure: number;
  matcherSizes: number[];
  connections: number;
  profile: boolean;
  out: string;
  quick: boolean;
  /** Sizes for the memory measurement alone (`--memory`, see bench/memory.ts); none: the full run. */
  memory: number[];
}

export function parseOptions(argv: string[]): Options {
  const options: Options = {
    campaigns: [10_000],
    sqlite: false,
    warmup: 10,
    measure: 30,
    matcherSizes: [10_000, 100_000, 1_000_000],
    connections: 50,
    profile: false,
    out: join(ROOT, 'BENCHMARKS.md'),
    quick: false,
    memory: [],
  };
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .filter(Boolean)
      .map((v) => Number(v.replace(/_/g, '')));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case '--campaigns':
        options.campaigns = list(argv[++i]);
        break;
      case '--sqlite':
        options.sqlite = true;
        break;
      case '--quick':
        options.quick = true;
        options.warmup = 2;
        options.measure = 5;
        options.matcherSizes = [10_000, 100_000];
        break;
      case '--matcher':
        options.matcherSizes = list(argv[++i]);
        break;
      case '--no-matcher':
        options.matcherSizes = [];
        break;
      case '--connections':
        options.connections = Number(argv[++i]);
        break;
      case '--profile':
        options.profile = true;
        break;
      case '--out':
        options.out = argv[++i];
        break;
      case '--memory':
        options.memory = list(argv[++i]);
        break;
      default:
        throw new Error(
          `unknown option ${arg}; options: --campaigns N[,N…] --sqlite --quick --matcher N[,N…] --no-matcher --connections N --profile --out FILE --memory N[,N…]`,
        );
    }
  }
  if (options.campaigns.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error('--campaigns takes positive integers, e.g. --campaigns 10000,1000000');
  }
  if (options.memory.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error('--memory takes positive integers, e.g. --memory 5000000');
  }
  return options;
}
