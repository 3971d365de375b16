import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@/config/app-config';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { ImpressionWriter } from '@/tracking/impression-writer.service';
import { stopTracing } from '@/tracing';
import { RequestDrain } from './request-drain.service';

/** Where the shutdown's one line goes: the operator's log, whatever LOG_LEVEL says. */
export interface ShutdownLog {
  info(message: string): void;
  error(message: string): void;
}

interface Progress {
  answered: number;
  cutOff: number;
  impressions: number;
  clicks: number;
}

/**
 * SIGTERM (or SIGINT, SIGHUP) closes the app the way `RequestDrain` describes: readiness 503 at
 * once, requests still served as usual for SHUTDOWN_DELAY_MS (so that a load balancer that
 * polls readiness has stopped sending before the server closes), the requests in flight finish, the server stops accepting, the impression and
 * click batches commit (and FillStatsRecorder writes its counts, in its own shutdown hook),
 * the connection pools close. Then one line says what it did and
 * the process exits 0. SHUTDOWN_TIMEOUT_SECONDS bounds all of it after the delay: a part that hangs (a
 * frozen database) gets a clear line and exit code 1 instead of a process that never ends.
 */
export function exitGracefullyOnSignals(
  app: INestApplication,
  config: Pick<AppConfig, 'shutdownTimeoutMs' | 'shutdownDelayMs'>,
  log: ShutdownLog,
): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal changes nothing: the timeout already bounds the first one's work.
    if (started) return;
    started = true;
    void shutDown(app, config, log, signal);
  };
  // SIGHUP too, as Nest's shutdown hooks did: a closed terminal stops the service cleanly.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);
}

async function shutDown(
  app: INestApplication,
  {
    shutdownTimeoutMs: timeoutMs,
    shutdownDelayMs,
  }: Pick<AppConfig, 'shutdownTimeoutMs' | 'shutdownDelayMs'>,
  log: ShutdownLog,
  signal: NodeJS.Signals,
): Promise<void> {
  const began = performance.now();
  const progress = progressSince(app);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  app.get(RequestDrain, { strict: false }).announceShutdown();
  if (shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, shutdownDelayMs));
  const forced = setTimeout(() => {
    log.error(
      `shutdown after ${signal} did not finish within ${seconds(timeoutMs)} (SHUTDOWN_TIMEOUT_SECONDS); ` +
        `exiting anyway, work still pending is lost: ${describe(progress())}`,
    );
    process.exit(1);
  }, timeoutMs);
  try {
    await app.close();
    // Spans of the last requests go out before the process ends (nothing when tracing is off).
    await stopTracing();
  } catch (error) {
    clearTimeout(forced);
    log.error(`shutdown after ${signal} failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  }
  clearTimeout(forced);
  log.info(
    `shutdown complete in ${seconds(performance.now() - began)} after ${signal}: ${describe(progress())}, connections closed`,
  );
  process.exit(0);
}

/** What the shutdown has done so far, counted from the signal. */
function progressSince(app: INestApplication): () => Progress {
  const drain = app.get(RequestDrain, { strict: false });
  const impressions = app.get(ImpressionWriter, { strict: false });
  const clicks = app.get(ClickRecorder, { strict: false });
  const before = { impressions: impressions.stats.rows, clicks: clicks.stats.clicks };
  return () => ({
    answered: drain.shutdownStats.answered,
    cutOff: drain.shutdownStats.cutOff,
    impressions: impressions.stats.rows - before.impressions,
    clicks: clicks.stats.clicks - before.clicks,
  });
}

function describe(p: Progress): string {
  const cut = p.cutOff > 0 ? ` (${p.cutOff} cut off at the drain's limit)` : '';
  return `drained ${p.answered} requests${cut}, committed ${p.impressions} impressions and ${p.clicks} clicks`;
}
