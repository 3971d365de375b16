import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from '@/config/app-config';
import { REDACTED, REDACTED_PATHS } from './redaction';

/** Colourful, human lines only for a person at a terminal on a development instance. */
export function wantsPrettyOutput(
  nodeEnv: AppConfig['nodeEnv'],
  stdoutIsTty: boolean | undefined,
): boolean {
  return nodeEnv === 'development' && stdoutIsTty === true;
}

/** One JSON object a line: ISO time, level by name, secrets redacted. */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/**
 * The process's one pino logger, shared by Fastify (request lines) and Nest (application
 * lines). It writes to stdout, or to `destination` when given (tests capture a run's log).
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'nodeEnv'>,
  destination?: DestinationStream,
): Logger {
  const options = loggerOptions(config);
  if (destination) return pino(options, destination);
  if (wantsPrettyOutput(config.nodeEnv, process.stdout.isTTY) && prettyPrinterInstalled()) {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss.l', singleLine: true },
      },
    });
  }
  return pino(options);
}

/** pino-pretty is a dev dependency: an image built without them logs JSON, even at a terminal. */
function prettyPrinterInstalled(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
