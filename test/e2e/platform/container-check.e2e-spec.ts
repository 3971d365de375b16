import { spawnSync } from 'node:child_process';
import { testDatabaseKind } from '@test/support/test-database';
import { ROOT } from '@test/support/paths';

const FIXTURES = 'test/fixtures/container';

/** Runs scripts/check-container.mjs with these options; its exit code and problem lines. */
function check(...args: string[]): { code: number | null; problems: string[]; stdout: string } {
  const run = spawnSync(process.execPath, ['scripts/check-container.mjs', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const problems = run.stderr
    .split('\n')
    .filter((line) => line && !line.startsWith('container check'));
  return { code: run.status, problems, stdout: run.stdout };
}

// Static checks only: the database kind of the run plays no part.
describe(`the container check (scripts/check-container.mjs; ${testDatabaseKind()} run)`, () => {
  it('passes the committed Dockerfile, compose.yaml, .env.example and .dockerignore', () => {
    const { code, problems, stdout } = check();
    expect(problems).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain('container check passed');
  });

  it('refuses a compose file that breaks the Compose specification', () => {
    const { code, problems } = check('--compose', `${FIXTURES}/compose-not-compose.yaml`);
    expect(code).toBe(1);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^compose: \/ must NOT have additional properties .*"service"/),
        expect.stringMatching(/condition must be equal to one of the allowed values/),
        expect.stringMatching(/healthcheck\/interval must match format "duration"/),
      ]),
    );
  });

  it("refuses a compose file that breaks the project's rules, naming each", () => {
    const { code, problems } = check('--compose', `${FIXTURES}/compose-broken-rules.yaml`);
    expect(code).toBe(1);
    expect(problems).toEqual([
      'compose: app.environment.SESSION_SECRET must come from the env file as ${SESSION_SECRET:?…}, not a literal',
      'compose: app.environment.DATABASE_URL has a password literal in its URL',
      'compose: app must depend on mysql with condition: service_healthy',
      'compose: app must depend on redis with condition: service_healthy',
      'compose: app.environment.DB_POOL_SIZE is not a variable of src/config/environment.ts',
      'compose: app.environment.DATABASE_URL names host db, which no service runs',
      "compose: app's healthcheck requests /health/nowhere, not a route of the service",
      'compose: mysql mounts volume data, which volumes: does not declare',
      'compose: mysql must keep /var/lib/mysql in a named volume',
      'compose: service redis has no healthcheck',
    ]);
  });

  it('refuses an env example with a filled-in secret or without a required variable', () => {
    const example = `${FIXTURES}/env-with-secret.example`;
    const { code, problems } = check('--env-example', example);
    expect(code).toBe(1);
    expect(problems).toEqual([
      `${example}: MYSQL_PASSWORD is required by compose.yaml but not listed`,
      `${example}: CLICK_SIGNING_SECRET must be left empty`,
    ]);
  });

  it('refuses a Dockerfile that runs as root, checks no route, copies a missing file or does not parse', () => {
    const { code, problems } = check('--dockerfile', `${FIXTURES}/Dockerfile.broken`);
    expect(code).toBe(1);
    expect(problems).toEqual([
      'Dockerfile:7: Unknown instruction: SHOUT',
      'Dockerfile: the final stage must run as USER node (got root)',
      'Dockerfile: the HEALTHCHECK requests /healthz, not a route of the service',
      'Dockerfile: CMD must be ["node", "dist/….js"] built from a source file (got ["node","dist/src/nowhere.js"])',
      'Dockerfile: COPY no-such-file.json: no such file',
    ]);
  });

  it('refuses a .dockerignore that lets .env or node_modules into the image', () => {
    const { code, problems } = check('--dockerignore', `${FIXTURES}/dockerignore.lax`);
    expect(code).toBe(1);
    expect(problems).toEqual([
      '.dockerignore: must exclude .env',
      '.dockerignore: must exclude node_modules',
    ]);
  });
});
