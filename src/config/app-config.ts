import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { shareToPpm, unitsToMicros } from '@/common/money';
import { ConfigError, EnvironmentVariables, validateEnvironment } from './environment';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies';

export type DatabaseConfig =
  | { type: 'sqlite'; file: string }
  /** `mariadb://` URLs use TypeORM's MariaDB dialect, which reads MariaDB's catalog right. */
  | { type: 'mysql'; flavour: 'mysql' | 'mariadb'; url: string; database: string };

/** The typed, validated configuration of one process. The only reader of `process.env`. */
export class AppConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  /** Where the server listens: all interfaces in production, only this machine otherwise. */
  readonly host: string;
  readonly baseUrl: string;
  readonly database: DatabaseConfig;
  readonly serviceName: string;
  readonly clickSigningSecret: string;
  readonly sessionSecret: string;
  readonly sessionTtlMs: number;
  readonly loginRateLimitPerMinute: number;
  readonly adminEmail: string | null;
  readonly adminPassword: string | null;
  readonly rateLimitPerMinute: number;
  readonly clickRateLimitPerMinute: number;
  /** False only where a gateway in front limits instead (and to measure the limiter's cost). */
  readonly rateLimitsEnabled: boolean;
  readonly clickWindowMs: number;
  /** A click sooner than this after its impression was served is too fast for a person. */
  readonly clickMinMs: number;
  /** A view later than this after its impression was served is not counted (410). */
  readonly viewWindowMs: number;
  /** Most billed clicks per client IP: on one campaign a minute, and on all an hour and a day. */
  readonly clickIpLimits: { perCampaignMinute: number; perHour: number; perDay: number };
  /** Fastify's `trustProxy`: whose `X-Forwarded-For` names the client IP. */
  readonly trustedProxies: TrustedProxies;
  readonly conversationMaxChars: number;
  readonly retentionDays: number;
  readonly bodyLimitBytes: number;
  readonly campaignIndexRefreshMs: number;
  /** Longest a request waits on the database before answering 503 database_unavailable. */
  readonly databaseTimeoutMs: number;
  /** Longest a shutdown (SIGTERM) may take, after its delay, before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /**
   * How long after SIGTERM the instance still serves with readiness 503 before it drains and
   * closes, so that a load balancer polling readiness stops sending to it first.
   */
  readonly shutdownDelayMs: number;
  /** Longest one statement may go unanswered before its connection is dropped (0: no limit). */
  readonly databaseQueryTimeoutMs: number;
  readonly apiKeyCacheMs: number;
  readonly impressionBatchSize: number;
  readonly impressionFlushMs: number;
  readonly clickBatchSize: number;
  readonly clickFlushMs: number;
  /** How often fetch-ads' counted outcomes are written to `daily_fill_stats`. */
  readonly fillStatsFlushMs: number;
  readonly defaultRevenueSharePpm: number;
  readonly redisUrl: string | null;
  /** OTLP/HTTP collector that traces go to (src/tracing.ts); null: tracing off. */
  readonly tracingEndpoint: string | null;
  /** Pino's name for LOG_LEVEL: `log` is `info`, `verbose` is `trace`. */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** One `info` line per answered request, whatever LOG_LEVEL says. */
  readonly accessLog: boolean;
  /** false: no metric is recorded and GET /metrics answers 404 (the benchmark's comparison). */
  readonly metricsEnabled: boolean;
  /** Bearer token GET /metrics requires; null: the endpoint is open. */
  readonly metricsToken: string | null;
  /** A publisher is due a payout once its unpaid balance reaches this (PAYOUT_THRESHOLD, units). */
  readonly payoutThresholdMicros: number;
  /** Where account mail goes (`smtp://`, `smtps://`); null: printed to the log (development only). */
  readonly smtpUrl: string | null;
  /** The From of account mail. */
  readonly mailFrom: string;

  constructor(env: EnvironmentVariables) {
    this.nodeEnv = (env.NODE_ENV ?? 'development') as AppConfig['nodeEnv'];
    this.port = env.PORT ?? 3000;
    this.host = env.HOST ?? (this.nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');
    this.baseUrl = (env.BASE_URL ?? `http://localhost:${this.port}`).replace(/\/+$/, '');
    this.database = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/adline.sqlite');
    this.serviceName = env.SERVICE_NAME ?? 'Adline';
    this.clickSigningSecret =
      env.CLICK_SIGNING_SECRET ??
      this.developmentSecret('CLICK_SIGNING_SECRET', 'click-signing.secret');
    this.sessionSecret =
      env.SESSION_SECRET ?? this.developmentSecret('SESSION_SECRET', 'session.secret');
    this.sessionTtlMs = (env.SESSION_TTL_HOURS ?? 168) * 3_600_000;
    this.loginRateLimitPerMinute = env.LOGIN_RATE_LIMIT_PER_MINUTE ?? 10;
    this.adminEmail = env.ADMIN_EMAIL ?? null;
    this.adminPassword = env.ADMIN_PASSWORD ?? null;
    this.rateLimitPerMinute = env.RATE_LIMIT_PER_MINUTE ?? 600;
    this.clickRateLimitPerMinute = env.CLICK_RATE_LIMIT_PER_MINUTE ?? 120;
    this.rateLimitsEnabled = env.RATE_LIMITS_ENABLED !== 'false';
    this.clickWindowMs = (env.CLICK_WINDOW_HOURS ?? 24) * 3_600_000;
    this.clickMinMs = (env.CLICK_MIN_SECONDS ?? 1) * 1000;
    this.viewWindowMs = (env.VIEW_WINDOW_MINUTES ?? 60) * 60_000;
    this.clickIpLimits = {
      perCampaignMinute: env.CLICK_IP_LIMIT_CAMPAIGN_MINUTE ?? 1,
      perHour: env.CLICK_IP_LIMIT_PER_HOUR ?? 10,
      perDay: env.CLICK_IP_LIMIT_PER_DAY ?? 25,
    };
    this.trustedProxies = parseTrustedProxies(env.TRUSTED_PROXIES);
    this.conversationMaxChars = env.CONVERSATION_MAX_CHARS ?? 4000;
    this.retentionDays = env.RETENTION_DAYS ?? 90;
    this.bodyLimitBytes = env.BODY_LIMIT_BYTES ?? 64 * 1024;
    this.campaignIndexRefreshMs = (env.CAMPAIGN_INDEX_REFRESH_SECONDS ?? 10) * 1000;
    this.databaseTimeoutMs = env.DATABASE_TIMEOUT_MS ?? 1500;
    this.shutdownTimeoutMs = (env.SHUTDOWN_TIMEOUT_SECONDS ?? 10) * 1000;
    this.shutdownDelayMs = env.SHUTDOWN_DELAY_MS ?? 0;
    this.databaseQueryTimeoutMs = env.DATABASE_QUERY_TIMEOUT_MS ?? 60_000;
    this.apiKeyCacheMs = (env.API_KEY_CACHE_SECONDS ?? 30) * 1000;
    this.impressionBatchSize = env.IMPRESSION_BATCH_SIZE ?? 500;
    this.impressionFlushMs = env.IMPRESSION_FLUSH_MS ?? 0;
    this.clickBatchSize = env.CLICK_BATCH_SIZE ?? 200;
    this.clickFlushMs = env.CLICK_FLUSH_MS ?? 0;
    this.fillStatsFlushMs = (env.FILL_STATS_FLUSH_SECONDS ?? 5) * 1000;
    this.defaultRevenueSharePpm = shareToPpm(env.DEFAULT_REVENUE_SHARE ?? 0.7);
    this.redisUrl = env.REDIS_URL ?? null;
    this.tracingEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT ?? null;
    this.logLevel = pinoLevel(env.LOG_LEVEL ?? 'warn');
    this.accessLog = env.ACCESS_LOG !== 'false';
    this.metricsEnabled = env.METRICS_ENABLED !== 'false';
    this.metricsToken = env.METRICS_TOKEN ?? null;
    this.payoutThresholdMicros = unitsToMicros(env.PAYOUT_THRESHOLD ?? 50);
    this.smtpUrl = env.SMTP_URL ?? null;
    this.mailFrom =
      env.MAIL_FROM ?? `${this.serviceName} <no-reply@${new URL(this.baseUrl).hostname}>`;
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  /** Reads and validates an environment (default: the process's); throws ConfigError. */
  static fromEnvironment(env: Record<string, string | undefined> = process.env): AppConfig {
    return new AppConfig(validateEnvironment(env));
  }

  /** Whether session cookies must be `Secure` (the service is reached over https). */
  get secureCookies(): boolean {
    return this.baseUrl.startsWith('https://');
  }

  /**
   * Outside production a missing secret is generated once and kept beside the SQLite file,
   * so tracking links and sessions stay valid across restarts of a development instance.
   */
  private developmentSecret(variable: string, fileName: string): string {
    if (this.nodeEnv === 'production') {
      throw new ConfigError(`Invalid environment variable ${variable}: required in production`);
    }
    if (this.database.type !== 'sqlite' || this.database.file === ':memory:') {
      return randomBytes(32).toString('base64url');
    }
    const file = join(dirname(this.database.file), fileName);
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dirname(file), { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

function pinoLevel(level: string): AppConfig['logLevel'] {
  if (level === 'log') return 'info';
  if (level === 'verbose') return 'trace';
  return level as AppConfig['logLevel'];
}

function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) return { type: 'sqlite', file: url.slice('sqlite:'.length) };
  const database = new URL(url).pathname.replace(/^\//, '');
  if (!database) {
    throw new ConfigError(
      'Invalid environment variable DATABASE_URL: the URL must name a database',
    );
  }
  const flavour = url.startsWith('mariadb://') ? 'mariadb' : 'mysql';
  return { type: 'mysql', flavour, url: url.replace(/^mariadb:/, 'mysql:'), database };
}
