import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER } from './publishers/api-key.guard';
import { BEARER_SCHEME, COOKIE_SCHEME } from './common/authenticated.decorator';
import { SESSION_COOKIE } from './auth/session-cookie';
import type { AppConfig } from './config/app-config';
import { applyDocumentConventions, METRICS_TOKEN_SCHEME } from './common/openapi-conventions';

/** Every tag an operation uses, with what its routes are for (tools list them in this order). */
const TAGS: [name: string, description: string][] = [
  ['ads', 'Fetching ads for a conversation: the one call a publisher backend makes.'],
  ['tracking', 'The tracking link people follow when they click an ad.'],
  ['conversions', 'Advertisers report conversions of their clicks: server to server or by pixel.'],
  ['auth', 'Publisher accounts: sign up, sign in, sign out.'],
  ['publisher', 'The signed-in publisher account.'],
  ['models', "The publisher's AI models, their API keys and their ad controls."],
  ['stats', "Traffic, fills and earnings of the publisher's models, by day."],
  ['admin', 'Operators only: advertisers, campaigns, publishers, reports and receipts.'],
  ['health', 'Liveness and readiness probes for orchestrators and load balancers.'],
  ['operations', 'Prometheus metrics of the instance.'],
];

/** The OpenAPI document of the app, as served at /docs/openapi.json and committed. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(`${config.serviceName} API`)
    .setDescription(
      'Contextual ads for the replies of AI models. Publisher backends call `POST /api/fetch-ads` with the API key of one AI model; people who follow an ad reach `GET /api/campaign_click`. Every error is RFC 9457 problem details (`application/problem+json`) with a stable `code`.\n\n**Use a test key while you build.** A model has live keys (`adl_live_…`) and test keys (`adl_test_…`, made with `POST /api/models/{id}/keys` and `{"kind": "test"}`, or on the dashboard). A test key gets the same matching, ads and working tracking links, but nothing it serves or its users click is billed or earns; `GET /api/stats` shows its traffic apart. Switch to a live key in production.',
    )
    .setVersion('1.0')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: API_KEY_HEADER,
        description:
          'The API key of one AI model: `adl_live_…` (billed) or `adl_test_…` (test mode: real ads and links, nothing billed).',
      },
      API_KEY_HEADER,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'The access_token of a sign-in, for programmatic clients.',
      },
      BEARER_SCHEME,
    )
    .addCookieAuth(
      SESSION_COOKIE,
      { type: 'apiKey', in: 'cookie', description: 'The dashboard session (HttpOnly).' },
      COOKIE_SCHEME,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: "An advertiser's conversions key (`adl_adv_…`), made by an operator.",
      },
      'advertiser-key',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'METRICS_TOKEN, when the operator set one (otherwise /metrics is open).',
      },
      METRICS_TOKEN_SCHEME,
    )
    // Relative: the paths already start with /api, and a client resolves them against the
    // origin it was given (or the one serving /docs), so one document fits every deployment.
    .addServer('/', 'This service, at the origin that serves this document.');
  for (const [name, description] of TAGS) builder.addTag(name, description);
  return applyDocumentConventions(
    SwaggerModule.createDocument(app, builder.build(), {
      operationIdFactory: (_controller: string, method: string) => method,
    }),
  );
}

/** Recursively sorts object keys so the committed document diffs cleanly. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
