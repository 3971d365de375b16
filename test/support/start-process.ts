import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

const ROOT = join(__dirname, '..', '..');

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Starts `src/main.ts` as production does (`node dist/src/main.js`) but without a build:
 * `ts-register.js` compiles the TypeScript as it is loaded, as Jest does.
 */
export function startMain(
  env: Record<string, string>,
  options: { uid?: number; gid?: number } = {},
): { exited: Promise<Exited>; kill(signal: NodeJS.Signals): void; stdout(): string } {
  const started = Date.now();
  const child = spawn(process.execPath, ['-r', './test/support/ts-register.js', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exited>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started }),
    ),
  );
  return { exited, kill: (signal) => child.kill(signal), stdout: () => stdout };
}

/**
 * Starts the service in development (which seeds the demo publisher, key and campaigns into
 * an empty database) on a free port, and waits for it to print its demo API key.
 */
export async function startDemo(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startMain({
    NODE_ENV: 'development',
    PORT: String(port),
    BASE_URL: base,
    RATE_LIMITS_ENABLED: 'false',
    CLICK_MIN_SECONDS: '0',
    ...env,
  });
  const started = Date.now();
  while (!service.stdout().includes('Fetch an ad:')) {
    if (Date.now() - started > 30_000) throw new Error(`no start-up: ${service.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const key = /demo API key \(model [^)]+\): (\S+)/.exec(service.stdout())![1];
  return { service, port, base, key };
}
