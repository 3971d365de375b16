/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. main.ts imports
 * this first: the auto-instrumentations patch HTTP, Fastify, mysql2, ioredis and the rest
 * as they are required, so they must be in place before any of those loads. Without the
 * variable nothing of OpenTelemetry is loaded at all (the requires below are lazy).
 *
 * Spans go to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` as OTLP/HTTP JSON; the SDK reads
 * the other standard variables itself (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS,
 * OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY, ...).
 */
interface Sdk {
  start(): void;
  shutdown(): Promise<void>;
}

let sdk: Sdk | null = null;

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) sdk = startTracing();

function startTracing(): Sdk {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { getNodeAutoInstrumentations } =
    require('@opentelemetry/auto-instrumentations-node') as typeof import('@opentelemetry/auto-instrumentations-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const started = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'adline',
    traceExporter: new OTLPTraceExporter(),
    // Traces only: metrics are Prometheus' (/metrics), logs are pino's lines.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      getNodeAutoInstrumentations({
        // A span per file read (every static asset, every require) would drown the rest.
        '@opentelemetry/instrumentation-fs': { enabled: false },
        '@opentelemetry/instrumentation-dns': { enabled: false },
        '@opentelemetry/instrumentation-net': { enabled: false },
      }),
    ],
  });
  started.start();
  return started;
}

/** Sends the spans still buffered and stops; the graceful shutdown awaits it. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = null;
}
