import { startLoopMonitor, type LoopStats } from '../measure/loop-monitor';
import { runStreams, type StreamResult, type StreamSpec } from './open-loop';

/**
 * The open-loop generator's own process (forked by bench/load/open-loop-process.ts), so that its
 * stalls are its own and can be told from the service's: it records its event-loop delay and
 * GC pauses over each run and sends them back with the latencies.
 *
 * Protocol (JSON over the IPC channel):
 *   child → parent  { type: 'ready' }
 *   parent → child  { type: 'run', url, seconds, streams }   (as many runs as wanted)
 *   child → parent  { type: 'result', result: RunResult }
 *   parent → child  { type: 'close' }                        (the child then exits)
 */

export interface RunMessage {
  type: 'run';
  url: string;
  seconds: number;
  streams: StreamSpec[];
}

export interface RunResult {
  streams: StreamResult[];
  /** This process over the run: event-loop delay and GC. */
  loop: LoopStats;
}

/**
 * 1 ms: the generator's own ticker wakes it every millisecond anyway during a run (measured:
 * the monitor then adds ~0.3% of a core), and a delay of that order is the granularity of
 * its sending.
 */
const GENERATOR_RESOLUTION_MS = 1;

process.on('message', (message: RunMessage | { type: 'close' }) => {
  if (message.type === 'close') {
    process.disconnect();
    return;
  }
  // Only while a run lasts: between runs the process idles beside the closed-loop phases,
  // and a 1 ms timer would cost it ~3% of a core for nothing.
  const monitor = startLoopMonitor(GENERATOR_RESOLUTION_MS);
  runStreams(message.url, message.seconds, message.streams).then(
    (streams) => {
      const result: RunResult = { streams, loop: monitor.read() };
      monitor.stop();
      process.send?.({ type: 'result', result });
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

process.send?.({ type: 'ready' });
