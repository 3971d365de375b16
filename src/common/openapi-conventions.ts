import type {
  HeadersObject,
  OpenAPIObject,
  OperationObject,
  PathItemObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger';
import { problemResponse } from './api-problem-responses.decorator';
import { PROBLEM_CONTENT_TYPE } from './problem';

/*
 * Formats: `date-time`, `date`, `uuid` and integer counts are declared on the DTOs. Emails and
 * URLs a person typed carry none: the validators accept internationalised addresses and URLs
 * (äda@例え.test, https://bücher.example/), which JSON Schema's `email` and `uri` refuse, so a
 * client checking formats would reject answers the API gives. Only the tracking link, which
 * the service builds percent-encoded, is declared a `uri`.
 */

/** Sent on every answer (app.setup.ts): the caller's sane `X-Request-Id`, else a new UUID. */
const REQUEST_ID_HEADER: HeadersObject = {
  'X-Request-Id': {
    description:
      "The request's id, as written in the service's log: the caller's own `X-Request-Id` when it is 1–128 letters, digits or `_.:-`, else a new UUID. Quote it when reporting a problem.",
    schema: { type: 'string', maxLength: 128 },
  },
};

/** Sent by the rate-limited routes (fetch-ads per API key, the click per client IP). */
export const RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current one-minute window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer' },
  },
};

/** The bearer token of `GET /metrics` when METRICS_TOKEN is set. */
export const METRICS_TOKEN_SCHEME = 'metrics-token';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * What holds for every route, written into the document once instead of on each route:
 * - a route that names no security scheme needs none (`security: []`): the management routes
 *   get theirs from `@Authenticated()`, fetch-ads from its API key, so one left without is public;
 * - every route with a path parameter can answer 400 `bad_url`: an id with invalid
 *   percent-encoding is refused before the route runs (problem-details.filter.ts);
 * - every route that reads a JSON body can answer 413 (over BODY_LIMIT_BYTES) and 415 (not
 *   JSON): the body parser answers them before any route runs (json-body.ts);
 * - every answer carries `X-Request-Id` (the onSend hook of app.setup.ts);
 * - request bodies state their defaults in words ({@link describeRequestDefaults}).
 */
export function applyDocumentConventions(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values<PathItemObject>(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation) applyOperationConventions(operation);
    }
  }
  describeRequestDefaults(document);
  return document;
}

/**
 * Moves each `default` of a request body's properties (and of the schemas they refer to)
 * into its description: "Left out: `false`.". Generators read a `default` as "always
 * present": openapi-typescript, with its default `defaultNonNullable`, makes such a property
 * of a component schema required, so types generated from the document would demand
 * `explain` and `max_ads` in every fetch-ads body and `kind` in every new key.
 * `node scripts/check-generated-types.mjs` holds it.
 */
function describeRequestDefaults(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<SchemaObject>();
  const visit = (schema: SchemaObject | ReferenceObject | undefined): void => {
    const target =
      schema && '$ref' in schema
        ? schemas[schema.$ref.replace('#/components/schemas/', '')]
        : schema;
    if (!target || '$ref' in target || seen.has(target)) return;
    seen.add(target);
    for (const property of Object.values(target.properties ?? {})) {
      if (!('$ref' in property) && property.default !== undefined) {
        const leftOut = `Left out: \`${typeof property.default === 'string' ? property.default : JSON.stringify(property.default)}\`.`;
        if (!property.description?.includes(leftOut)) {
          property.description = property.description
            ? `${property.description} ${leftOut}`
            : leftOut;
        }
        delete property.default;
      }
      visit(property);
    }
    for (const part of [
      ...(target.allOf ?? []),
      ...(target.oneOf ?? []),
      ...(target.anyOf ?? []),
    ]) {
      visit(part);
    }
    if (target.items) visit(target.items);
    if (typeof target.additionalProperties === 'object') visit(target.additionalProperties);
  };
  for (const pathItem of Object.values<PathItemObject>(document.paths)) {
    for (const method of METHODS) {
      const body = pathItem[method]?.requestBody;
      if (!body || '$ref' in body) continue;
      for (const media of Object.values(body.content)) visit(media.schema);
    }
  }
}

function applyOperationConventions(operation: OperationObject): void {
  operation.security ??= [];
  if (hasPathParameter(operation)) documentBadUrl(operation);
  if (takesJson(operation)) {
    operation.responses['413'] ??= problemResponse(413, ['payload_too_large']);
    operation.responses['415'] ??= problemResponse(415, ['unsupported_media_type']);
  }
  for (const response of Object.values(operation.responses)) {
    if (!response || '$ref' in response) continue;
    response.headers = { ...response.headers, ...REQUEST_ID_HEADER };
  }
}

function takesJson(operation: OperationObject): boolean {
  const body = operation.requestBody;
  return !!body && !('$ref' in body) && 'application/json' in body.content;
}

function hasPathParameter(operation: OperationObject): boolean {
  return (operation.parameters ?? []).some(
    (parameter) => 'in' in parameter && parameter.in === 'path',
  );
}

/** Adds 400 `bad_url`: a response of its own, or one more example of the route's 400. */
function documentBadUrl(operation: OperationObject): void {
  const badUrl = problemResponse(400, ['bad_url']);
  const existing = operation.responses['400'];
  if (!existing || '$ref' in existing) {
    operation.responses['400'] ??= badUrl;
    return;
  }
  const content = existing.content?.[PROBLEM_CONTENT_TYPE];
  const examples = badUrl.content?.[PROBLEM_CONTENT_TYPE]?.examples;
  if (content && examples) content.examples = { ...content.examples, ...examples };
}
