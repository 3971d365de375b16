import { checkResponse, formatMismatch, type Mismatch } from './openapi-responses';

/*
 * Every answer an e2e suite gets from the service is checked against openapi.json
 * (`openapi-responses.ts`). The helpers (test-app's `http` and `fetchAds`, the factories'
 * `api`, operator-api, ads' `followWith`) and the few suites that call a child process all
 * send through the global `fetch`, so wrapping it once here checks all of their traffic,
 * including requests a suite makes itself. Only loopback answers are the service's; the
 * e2e suites talk to nothing else over fetch.
 *
 * OPENAPI_RESPONSES=enforce (the default) fails the test that received a mismatching answer,
 * with the operation, status, the validator's errors and the body; OPENAPI_RESPONSES=report
 * prints each distinct mismatch once per test file instead; OPENAPI_RESPONSES=off skips it.
 */

export type RecorderMode = 'enforce' | 'report' | 'off';

export function recorderMode(value: string | undefined): RecorderMode {
  if (value === undefined || value === '' || value === 'enforce') return 'enforce';
  if (value === 'report' || value === 'off') return value;
  throw new Error(`OPENAPI_RESPONSES must be enforce, report or off, not ${value}`);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Collects the checks of answers as they arrive; `take()` hands over the mismatches so far. */
export class ResponseRecorder {
  private pending: Promise<void>[] = [];
  private mismatches: Mismatch[] = [];

  /** Wraps a fetch so that each loopback answer is checked without delaying the caller. */
  wrap(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      const request = input instanceof Request ? input : undefined;
      const url = new URL(request?.url ?? (input instanceof URL ? input.href : input));
      if (LOOPBACK.has(url.hostname)) {
        const method = init?.method ?? request?.method ?? 'GET';
        this.pending.push(this.check(method, url, response.clone()));
      }
      return response;
    };
  }

  private async check(method: string, url: URL, response: Response): Promise<void> {
    // A body the connection lost (a server killed mid-answer) is not the document's concern.
    const body = await response.text().catch(() => null);
    const verdict = checkResponse({
      method,
      url: `${url.pathname}${url.search}`,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
    });
    if (verdict.kind === 'mismatch') this.mismatches.push(verdict.mismatch);
  }

  /** Waits for the checks under way and returns the mismatches found since the last call. */
  async take(): Promise<Mismatch[]> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
    const found = this.mismatches;
    this.mismatches = [];
    return found;
  }
}

/** Installs the recorder on this test file's global fetch, with hooks that act on its findings. */
export function installRecorder(
  mode: RecorderMode = recorderMode(process.env.OPENAPI_RESPONSES),
): void {
  if (mode === 'off') return;
  const recorder = new ResponseRecorder();
  globalThis.fetch = recorder.wrap(globalThis.fetch);
  const reported = new Set<string>();

  const settle = async () => {
    const mismatches = await recorder.take();
    if (mismatches.length === 0) return;
    if (mode === 'enforce') {
      throw new Error(
        `${mismatches.length} answer(s) do not match openapi.json:\n\n${distinct(mismatches)
          .map(formatMismatch)
          .join('\n\n')}`,
      );
    }
    for (const mismatch of distinct(mismatches)) {
      const key = signature(mismatch);
      if (reported.has(key)) continue;
      reported.add(key);
      console.warn(`[openapi-responses] ${formatMismatch(mismatch)}`);
    }
  };
  // Runs after the suite's own afterEach hooks (a root hook runs last), so answers a test's
  // cleanup receives are judged with that test; beforeAll traffic goes to the first test.
  afterEach(settle);
  afterAll(settle);
}

const signature = (mismatch: Mismatch) =>
  `${mismatch.operation}|${mismatch.status}|${mismatch.problem}|${(mismatch.errors ?? []).join(';')}`;

/** One of each kind: a suite that sends the same wrong answer 500 times needs to read it once. */
function distinct(mismatches: Mismatch[]): Mismatch[] {
  const seen = new Map<string, Mismatch>();
  for (const mismatch of mismatches) {
    if (!seen.has(signature(mismatch))) seen.set(signature(mismatch), mismatch);
  }
  return [...seen.values()];
}
