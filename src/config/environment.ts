import { Transform, plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  isFQDN,
  isIP,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  validateSync,
  ValidationError,
} from 'class-validator';
import { IsAcceptablePassword } from '@/common/password-policy';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

const WHOLE_NUMBER = 'must be a whole number';

/**
 * An integer setting from `min` to `max`. Anything but digits "must be a whole number",
 * which `describe` says rather than a bound that another check also failed.
 */
function WholeNumber(min: number, max?: number): PropertyDecorator {
  const checks = [
    Transform(toInt),
    IsInt({ message: WHOLE_NUMBER }),
    Min(min),
    ...(max === undefined ? [] : [Max(max)]),
  ];
  return (target, property) => checks.forEach((check) => check(target, property));
}

const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))
    ? Number(value)
    : value;

/**
 * The environment variables of docs/configuration.md, validated once at start-up.
 * Every value is optional here; defaults are applied by `AppConfig`.
 */
export class EnvironmentVariables {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;

  @IsOptional() @WholeNumber(0, 65535) PORT?: number;

  /** The interface to listen on: an IP address (`0.0.0.0`, `::`, `127.0.0.1`) or a host name. */
  @IsOptional()
  @ValidateBy({
    name: 'isHostOrIp',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false })),
      defaultMessage: () => 'must be an IP address or a host name',
    },
  })
  HOST?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an http(s) URL' })
  BASE_URL?: string;

  @IsOptional()
  @Matches(/^(sqlite:.+|(mysql|mariadb):\/\/.+)$/, {
    message: 'must be sqlite:<file>, mysql://user:pass@host:port/db or mariadb://…',
  })
  DATABASE_URL?: string;

  @IsOptional() @IsString() @MinLength(1) SERVICE_NAME?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  CLICK_SIGNING_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  SESSION_SECRET?: string;

  @IsOptional() @WholeNumber(1) SESSION_TTL_HOURS?: number;
  @IsOptional() @WholeNumber(1) LOGIN_RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Matches(/^[^@\s]+@[^@\s]+$/, { message: 'must be an email address' })
  ADMIN_EMAIL?: string;

  @IsOptional() @IsString() @IsAcceptablePassword() ADMIN_PASSWORD?: string;

  @IsOptional() @WholeNumber(1) RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @WholeNumber(1) CLICK_RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @IsIn(['true', 'false']) RATE_LIMITS_ENABLED?: string;
  @IsOptional() @WholeNumber(1) CLICK_WINDOW_HOURS?: number;
  @IsOptional() @WholeNumber(0) CLICK_MIN_SECONDS?: number;
  @IsOptional() @WholeNumber(1, 1440) VIEW_WINDOW_MINUTES?: number;
  @IsOptional() @WholeNumber(1) CLICK_IP_LIMIT_CAMPAIGN_MINUTE?: number;
  @IsOptional() @WholeNumber(1) CLICK_IP_LIMIT_PER_HOUR?: number;
  @IsOptional() @WholeNumber(1) CLICK_IP_LIMIT_PER_DAY?: number;
  /** Checked by AppConfig (parseTrustedProxies), which names the bad entry. */
  @IsOptional() @IsString() TRUSTED_PROXIES?: string;
  @IsOptional() @WholeNumber(1) CONVERSATION_MAX_CHARS?: number;
  @IsOptional() @WholeNumber(1) RETENTION_DAYS?: number;
  @IsOptional() @WholeNumber(1024) BODY_LIMIT_BYTES?: number;
  @IsOptional() @WholeNumber(1) CAMPAIGN_INDEX_REFRESH_SECONDS?: number;
  @IsOptional() @WholeNumber(100, 60000) DATABASE_TIMEOUT_MS?: number;
  @IsOptional() @WholeNumber(0) DATABASE_QUERY_TIMEOUT_MS?: number;
  @IsOptional() @WholeNumber(1, 3600) SHUTDOWN_TIMEOUT_SECONDS?: number;
  @IsOptional() @WholeNumber(0, 300_000) SHUTDOWN_DELAY_MS?: number;
  @IsOptional() @WholeNumber(0) API_KEY_CACHE_SECONDS?: number;
  @IsOptional() @WholeNumber(1, 1000) IMPRESSION_BATCH_SIZE?: number;
  @IsOptional() @WholeNumber(0, 1000) IMPRESSION_FLUSH_MS?: number;
  @IsOptional() @WholeNumber(1, 1000) CLICK_BATCH_SIZE?: number;
  @IsOptional() @WholeNumber(0, 1000) CLICK_FLUSH_MS?: number;
  @IsOptional() @WholeNumber(1, 3600) FILL_STATS_FLUSH_SECONDS?: number;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(1)
  DEFAULT_REVENUE_SHARE?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** Read by src/tracing.ts before anything else loads; validated here like the rest. */
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** Nest's level names, or pino's `info` and `trace` (the same as `log` and `verbose`). */
  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'log', 'info', 'debug', 'verbose', 'trace'])
  LOG_LEVEL?: string;
  @IsOptional() @IsIn(['true', 'false']) ACCESS_LOG?: string;
  @IsOptional() @IsIn(['true', 'false']) METRICS_ENABLED?: string;

  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** In units (USD): a whole number of cents at most. */
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({ maxDecimalPlaces: 2 }, { message: 'must be an amount such as 50 or 25.50' })
  @Min(0)
  PAYOUT_THRESHOLD?: number;

  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional() @IsString() @MinLength(3) MAIL_FROM?: string;
}

/** Thrown when the environment is invalid; its message is one line per bad variable. */
export class ConfigError extends Error {}

/** Checks of what a value is: when one fails, a bound (`must not be less than 1`) says nothing. */
const KIND_CHECKS = ['isInt', 'isNumber'];

function describe(errors: ValidationError[]): string {
  return errors
    .map((e) => {
      const constraints = e.constraints ?? {};
      const kind = KIND_CHECKS.find((name) => name in constraints);
      const reason = (kind && constraints[kind]) ?? Object.values(constraints)[0] ?? 'is invalid';
      // A URL may carry a password (`smtp://user:pass@host`).
      const secret = /SECRET|PASSWORD|TOKEN|_URL$/.test(e.property);
      const shown = secret ? '' : ` (got ${JSON.stringify(e.value)})`;
      return `Invalid environment variable ${e.property}: ${reason.replace(`${e.property} `, '')}${shown}`;
    })
    .join('\n');
}

/** Validates the raw environment; throws `ConfigError` naming each bad variable. */
export function validateEnvironment(env: Record<string, string | undefined>): EnvironmentVariables {
  const known = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = plainToInstance(EnvironmentVariables, known);
  const errors = validateSync(parsed, { whitelist: true });
  if (errors.length > 0) throw new ConfigError(describe(errors));
  return parsed;
}
