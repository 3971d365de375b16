import { spawn } from 'node:child_process';
import { join } from 'node:path';

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
