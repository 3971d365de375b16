// Set up for the e2e and services suites in jest.config.js. Their beforeAll and afterAll
// hooks boot or close a whole app (migrations on a fresh database, the safety model), which
// on a slow, busy laptop takes longer than a test should; Jest's one testTimeout would have
// to be raised for every test to suit them. A hook given no limit of its own gets one that
// suits booting an app; a hook that hangs still fails, after a minute.
export const HOOK_TIME_LIMIT_MS = 60_000;

type Hook = (fn: jest.ProvidesHookCallback, timeout?: number) => void;

function withBootLimit(hook: Hook): Hook {
  return (fn, timeout) => hook(fn, timeout ?? HOOK_TIME_LIMIT_MS);
}

globalThis.beforeAll = withBootLimit(globalThis.beforeAll);
globalThis.afterAll = withBootLimit(globalThis.afterAll);
