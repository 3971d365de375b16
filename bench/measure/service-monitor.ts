import { startLoopMonitor } from './loop-monitor';

/**
 * Preloaded into the service (`node -r ./dist/bench/measure/service-monitor.js dist/src/main.js`,
 * bench/service/service-phases.ts), so that the benchmark sees the service's own event-loop delay
 * and GC pauses per phase without a line of src/ knowing about it. It answers on the IPC
 * channel the benchmark opens: `{ type: 'loop:reset' }` at the start of a phase, then
 * `{ type: 'loop:read' }`, answered with `{ type: 'loop', stats }` (a LoopStats).
 *
 * Resolution 2 ms: any block longer than ~2 ms is seen nearly whole (the p99 goal is 15 ms),
 * while the monitor's native timer costs at most ~1.5% of a core when the service is idle
 * (measured here: 1 ms cost 3%, 10 ms 0.4%) and less under load, when the loop is awake for
 * its sockets anyway.
 */
const SERVICE_RESOLUTION_MS = 2;

if (process.send) {
  const monitor = startLoopMonitor(SERVICE_RESOLUTION_MS);
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'loop:reset') {
      monitor.reset();
      process.send?.({ type: 'loop:reset' });
    } else if (message.type === 'loop:read') {
      process.send?.({ type: 'loop', stats: monitor.read() });
    }
  });
  // Listening refs the channel; unref it so that the service still ends by itself on SIGTERM
  // once Nest has closed everything, as it does without the benchmark.
  process.channel?.unref();
}
