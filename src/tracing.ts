/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (and OTEL_SDK_DISABLED
 * is not `true`). main.ts imports this first: the instrumentations patch HTTP, mysql2,
 * ioredis and pino as they are required, so they must be in place before any of those
 * loads. Without the variable nothing of OpenTelemetry is loaded at all (the requires below
 * are lazy).
 *
 * Only what the service runs is instrumented: a server span per HTTP request, a span per
 * MySQL/MariaDB statement (mysql2; SQLite has no instrumentation) and per Redis command
 * (ioredis), and the current trace's ids in pino's log lines (trace_id, span_id,
 * trace_flags). Spans go to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` as OTLP/HTTP JSON.
 *
 * Standard variables: the exporter reads OTEL_EXPORTER_OTLP_HEADERS (and the other
 * OTEL_EXPORTER_OTLP_* ones), the tracer provider OTEL_TRACES_SAMPLER(_ARG) and the span
 * limits, the batch processor OTEL_BSP_SCHEDULE_DELAY and the other OTEL_BSP_* ones, the env
 * detector OTEL_RESOURCE_ATTRIBUTES; OTEL_SERVICE_NAME (default `adline`), OTEL_SDK_DISABLED
 * and OTEL_LOG_LEVEL are read here, as the Node SDK did. Propagation is W3C trace context and
 * baggage (OTEL_PROPAGATORS is not read).
 */
interface Tracing {
  shutdown(): Promise<void>;
}

let tracing: Tracing | null = null;

if (
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT &&
  process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true'
)
  tracing = startTracing();

function startTracing(): Tracing {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { diag, DiagConsoleLogger, DiagLogLevel } =
    require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const {
    defaultResource,
    detectResources,
    envDetector,
    hostDetector,
    processDetector,
    resourceFromAttributes,
  } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { MySQL2Instrumentation } =
    require('@opentelemetry/instrumentation-mysql2') as typeof import('@opentelemetry/instrumentation-mysql2');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { PinoInstrumentation } =
    require('@opentelemetry/instrumentation-pino') as typeof import('@opentelemetry/instrumentation-pino');
  /* eslint-enable @typescript-eslint/no-require-imports */

  // OpenTelemetry's own diagnostics (a failing export, a dropped span), on stderr.
  const logLevel = process.env.OTEL_LOG_LEVEL?.trim().toUpperCase();
  if (logLevel) {
    const level: unknown = DiagLogLevel[logLevel as keyof typeof DiagLogLevel];
    diag.setLogger(new DiagConsoleLogger(), {
      logLevel: typeof level === 'number' ? level : DiagLogLevel.INFO,
    });
  }

  const provider = new NodeTracerProvider({
    // The SDK's attributes, OTEL_RESOURCE_ATTRIBUTES, the process and the host, as the Node
    // SDK detected them; no cloud detector.
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector, processDetector, hostDetector] }))
      .merge(resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'adline' })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation(),
      new MySQL2Instrumentation(),
      new IORedisInstrumentation(),
      // Log correlation only: the lines stay pino's, none is sent as an OpenTelemetry log.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  return provider;
}

/** Sends the spans still buffered and stops; the graceful shutdown awaits it. */
export async function stopTracing(): Promise<void> {
  await tracing?.shutdown();
  tracing = null;
}
