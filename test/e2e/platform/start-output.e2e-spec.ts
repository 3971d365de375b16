import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@test/support/free-port';
import { ROOT } from '@test/support/paths';

/** util-linux's `script` runs a command in a pseudo-terminal, as a person's shell does. */
const SCRIPT = '/usr/bin/script';

/**
 * Starts a development instance (demo data on a fresh SQLite file) and returns what it
 * printed once the demo's curl command is out; in a pseudo-terminal when `terminal` is set.
 */
async function startupOutput(terminal: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'adline-start-output-'));
  const port = await freePort();
  const main = `${process.execPath} -r ./test/support/ts-register.js src/main.ts`;
  const [command, args] = terminal
    ? [SCRIPT, ['-qfec', main, '/dev/null']]
    : [process.execPath, ['-r', './test/support/ts-register.js', 'src/main.ts']];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${join(dir, 'adline.sqlite')}`,
      LOG_LEVEL: 'info',
      TERM: 'dumb',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const started = Date.now();
    while (!output.includes('Then open the campaign_link')) {
      if (Date.now() - started > 40_000) throw new Error(`no start-up:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The log's worker thread may write a moment after the demo's plain lines.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return output;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const isJsonLine = (line: string) => /^\{.*\}$/.test(line.trim());
const linesOf = (output: string) =>
  output
    // eslint-disable-next-line no-control-regex -- colour codes of the pretty printer
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');

describe('what a development instance prints at start-up', () => {
  const inTerminal = existsSync(SCRIPT) ? it : it.skip;

  inTerminal(
    'is plain text a person reads when stdout is a terminal',
    async () => {
      const lines = linesOf(await startupOutput(true));
      const listening = lines.find((line) => line.includes('Adline listening on'));
      expect(listening).toBeDefined();
      expect(isJsonLine(listening!)).toBe(false);
      expect(lines.filter(isJsonLine)).toEqual([]);
      expect(lines.some((line) => line.startsWith('  demo API key'))).toBe(true);
    },
    60_000,
  );

  it('keeps log lines JSON when piped, for a log pipeline', async () => {
    const lines = linesOf(await startupOutput(false));
    const listening = lines.find((line) => line.includes('Adline listening on'));
    expect(listening).toBeDefined();
    expect(JSON.parse(listening!)).toMatchObject({ level: 'info' });
    // The demo's key and curl command stay plain text to copy, piped or not.
    expect(lines.some((line) => line.startsWith('  demo API key'))).toBe(true);
  }, 60_000);
});
