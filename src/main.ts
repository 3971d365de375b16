// First: with OTEL_EXPORTER_OTLP_ENDPOINT, tracing must patch modules before they load.
import './tracing';
import 'reflect-metadata';
import { createApp } from './app.setup';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/environment';
import { asStartupConfigError, checkSqliteWritable } from './database/startup-check';
import { DemoData, DemoSeeder } from './demo/demo-seeder.service';
import { exitGracefullyOnSignals } from './health/graceful-shutdown';

async function bootstrap(): Promise<void> {
  const config = AppConfig.fromEnvironment();
  checkSqliteWritable(config.database, config.databaseTimeoutMs);
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  // Start-up lines are for the operator whatever LOG_LEVEL is: log lines like the rest (a
  // log pipeline reads JSON only), through a child logger that writes `info`.
  const log = app.getHttpAdapter().getInstance().log.child({}, { level: 'info' });
  // SIGTERM drains, commits and closes within SHUTDOWN_TIMEOUT_SECONDS, then says so here.
  exitGracefullyOnSignals(app, config, log);
  const address = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info(
    `Adline listening on ${address}:${config.port}, public address ${config.baseUrl} (API docs: ${config.baseUrl}/docs)`,
  );
  log.info(`Publisher dashboard: ${config.baseUrl}/dashboard`);
  // Demo data only for a development instance on an empty database, never in production.
  if (config.nodeEnv === 'development') {
    const demo = await app.get(DemoSeeder).seedIfEmpty();
    if (demo) printDemo(config, demo);
  }
}

/** Plain text, not a log line: a developer copies the key and the curl command from it. */
function printDemo(config: AppConfig, demo: DemoData): void {
  console.log(
    [
      'Seeded demo data into the empty database.',
      `  demo publisher: ${demo.publisherEmail}, password ${demo.publisherPassword}`,
      `    sign in at ${config.baseUrl}/dashboard`,
      `  demo API key (model ${demo.modelId}): ${demo.apiKey}`,
      `  demo test key (same model; real ads and links, nothing billed): ${demo.testApiKey}`,
      'Fetch an ad:',
      `  curl -s -X POST ${config.baseUrl}/api/fetch-ads \\`,
      `    -H 'service-api-key: ${demo.apiKey}' -H 'Content-Type: application/json' \\`,
      `    -d '{"conversation":"Which GPU should I rent to train my model?","context_keywords":"gpu, machine learning"}'`,
      'Then open the campaign_link of the answer: it redirects to the advertiser (302).',
      'While you build an integration, send the test key instead: the same ads, never billed.',
    ].join('\n'),
  );
}

bootstrap().catch((error: unknown) => {
  // A bad environment is the operator's mistake: one clear line, no stack trace.
  const configError = error instanceof ConfigError ? error : asStartupConfigError(error);
  if (configError) {
    console.error(configError.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
