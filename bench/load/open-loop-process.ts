import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { StreamSpec } from './open-loop';
import type { RunMessage, RunResult } from './open-loop-child';

/**
 * The benchmark's side of an open-loop generator process (bench/load/open-loop-child.ts): started
 * once, it can run several phases in a row (a warm-up, then the measured phase, keeping its
 * JIT warm), and is closed at the end. Nothing else runs in that process, so its event-loop
 * delay is the generator's own; the benchmark's process (autocannon, the harvested links of
 * the closed loops) stays out of it.
 */
export class GeneratorProcess {
  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(name: string): Promise<GeneratorProcess> {
    const child = fork(join(__dirname, 'open-loop-child.js'), [], {
      // Not the benchmark's own flags (a --cpu-prof, say): the generator runs plain.
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`generator ${name} exited (${code})`)));
    });
    child.removeAllListeners('exit');
    return new GeneratorProcess(name, child);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Runs `streams` for `seconds` in the generator's process; resolves with its figures. */
  run(url: string, seconds: number, streams: StreamSpec[]): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`generator ${this.name} exited (${code}) during a run`));
      this.child.once('exit', onExit);
      this.child.once('message', (message: { type: string; result: RunResult }) => {
        this.child.off('exit', onExit);
        resolve(message.result);
      });
      const run: RunMessage = { type: 'run', url, seconds, streams };
      this.child.send(run);
    });
  }

  /** Asks the process to end and waits for it (SIGKILL after 10 s). */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.connected) this.child.send({ type: 'close' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
