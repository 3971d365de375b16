import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER } from './publishers/api-key.guard';
import { BEARER_SCHEME, COOKIE_SCHEME } from './common/authenticated.decorator';
import { SESSION_COOKIE } from './auth/session-cookie';
import type { AppConfig } from './config/app-config';

/** The OpenAPI document of the app, as served at /docs/openapi.json and committed. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const options = new DocumentBuilder()
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
    .build();
  return SwaggerModule.createDocument(app, options, {
    operationIdFactory: (_controller: string, method: string) => method,
  });
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
