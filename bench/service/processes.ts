import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from '../common/options';

/** A child process under test: the built service or the bare baseline server. */
export class Child {
  private peakRss = 0;
  private sampler: NodeJS.Timeout | null = null;
  private output = '';

  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    process.stdout?.on('data', keep);
    process.stderr?.on('data', keep);
  }

  static start(name: string, args: string[], env: Record<string, string>): Child {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      // The IPC channel carries the phase messages of bench/measure/service-monitor.ts, when
      // preloaded.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    return new Child(name, child);
  }

  get pid(): number {
    return this.process.pid as number;
  }

  get log(): string {
    return this.output;
  }

  /** VmRSS of the process now, in MiB (Linux /proc). */
  rssMiB(): number {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    } catch {
      return 0;
    }
  }

  /** Samples RSS every 250 ms from now on; `peakRssMiB` is the highest sample. */
  sampleRss(): void {
    this.sampler ??= setInterval(() => {
      this.peakRss = Math.max(this.peakRss, this.rssMiB());
    }, 250);
  }

  get peakRssMiB(): number {
    return Math.max(this.peakRss, this.rssMiB());
  }

  async waitFor(url: string, timeoutSeconds: number): Promise<void> {
    const deadline = Date.now() + timeoutSeconds * 1000;
    while (Date.now() < deadline) {
      if (this.process.exitCode !== null) {
        throw new Error(`${this.name} exited (${this.process.exitCode}):\n${this.output}`);
      }
      try {
        const response = await fetch(url, { redirect: 'manual' });
        if (response.status < 400) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(
      `${this.name} did not answer ${url} within ${timeoutSeconds} s:\n${this.output}`,
    );
  }

  /**
   * Sends `{ type }` over the IPC channel and resolves with the child's next message that
   * answers it (`answer`), or null if none comes within `timeoutMs` (a child without the
   * preloaded monitor, or one that has exited).
   */
  ask<T>(type: string, answer: string, timeoutMs = 5_000): Promise<T | null> {
    if (!this.process.connected) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onMessage = (message: { type?: string }) => {
        if (message.type !== answer) return;
        clearTimeout(timer);
        this.process.off('message', onMessage);
        resolve(message as T);
      };
      const timer = setTimeout(() => {
        this.process.off('message', onMessage);
        resolve(null);
      }, timeoutMs);
      this.process.on('message', onMessage);
      this.process.send({ type });
    });
  }

  /** Stops it with `signal` and waits (SIGKILL after 60 s). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    this.process.kill(signal);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
}
