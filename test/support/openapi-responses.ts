import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { outsideTheDocument } from './openapi-outside';

/*
 * Checks a real answer of the service against the committed openapi.json: the status is
 * documented for the operation, the content type is a documented one, and a JSON body
 * validates against that status's schema.
 *
 * Why Ajv 8 and not openapi-response-validator: Ajv is already a devDependency (with
 * ajv-formats), it is maintained, and compiling one schema per operation, status and media
 * type on first use keeps the e2e run's cost to a few milliseconds per test file. The
 * document is OpenAPI 3.0, whose `nullable` and `example` are not JSON Schema; the few lines
 * of `toJsonSchema` below translate them, so Ajv runs in strict mode and a keyword it does
 * not know is an error here rather than a rule silently skipped.
 */

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}
interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  methods: Record<string, Operation>;
}

/** One answer as the test saw it. */
export interface ObservedResponse {
  method: string;
  /** The path and query the request went to (the origin is not looked at). */
  url: string;
  status: number;
  /** The Content-Type header, or null when there was none. */
  contentType: string | null;
  /** The body as text ('' when empty); null when it could not be read. */
  body: string | null;
}

/** Where the answer was found wanting: enough to find the decorator to fix. */
export interface Mismatch {
  operation: string;
  status: number;
  problem: string;
  errors?: string[];
  body: string | null;
}

export type Verdict =
  | { kind: 'ok'; operation: string }
  | { kind: 'outside'; reason: string }
  | { kind: 'mismatch'; mismatch: Mismatch };

const DOCUMENT_ID = 'adline-openapi.json';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

let loaded: { routes: Route[]; ajv: Ajv; validators: Map<string, ValidateFunction> } | undefined;

/** Reads and compiles the document once per test file (Jest gives each file its own modules). */
function document() {
  if (loaded) return loaded;
  const raw = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'),
  ) as Json & { paths: Record<string, Record<string, Operation>>; components: Json };
  const routes = Object.entries(raw.paths).map(([template, item]) => ({
    template,
    pattern: new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
    ),
    params: (template.match(/\{/g) ?? []).length,
    methods: Object.fromEntries(
      Object.entries(item).filter(([method]) => HTTP_METHODS.has(method)),
    ),
  }));
  // A literal segment wins over a template: /a/reports beats /a/{id}.
  routes.sort((a, b) => a.params - b.params);
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  // The document's own top-level keys carry schemas but are not keywords of their own.
  ajv.addKeyword('paths');
  ajv.addKeyword('components');
  ajv.addSchema(
    {
      $id: DOCUMENT_ID,
      paths: toJsonSchema(raw.paths),
      components: toJsonSchema(raw.components),
    },
    DOCUMENT_ID,
  );
  loaded = { routes, ajv, validators: new Map() };
  return loaded;
}

/** OpenAPI 3.0 schema objects to JSON Schema: `nullable: true` also admits null; no `example`. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Documentation only (field names under `properties` are kept by `mapValues`).
    if (key === 'example' || key === 'examples') continue;
    out[key] = key === 'properties' ? mapValues(value as Json) : toJsonSchema(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    const { description, ...schema } = out;
    return { description, anyOf: [schema, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

/** A `properties` map: its keys are field names (one may well be `example`), its values schemas. */
function mapValues(properties: Json): Json {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, toJsonSchema(schema)]),
  );
}

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function findOperation(method: string, path: string) {
  for (const route of document().routes) {
    if (!route.pattern.test(path)) continue;
    // Fastify answers HEAD for every GET route: the GET operation without its body.
    const operation =
      route.methods[method.toLowerCase()] ?? (method === 'HEAD' ? route.methods.get : undefined);
    return operation ? { route, operation } : undefined;
  }
  return undefined;
}

/** The documented response for a status: exact, then a range such as 4XX, then default. */
function documentedResponse(operation: Operation, status: number) {
  const keys = [String(status), `${String(status)[0]}XX`, 'default'];
  const key = keys.find((candidate) => operation.responses[candidate] !== undefined);
  return key === undefined ? undefined : { key, response: operation.responses[key] };
}

/** The validator of the schema at this pointer into the document, compiled on first use. */
function compiled(at: string): ValidateFunction {
  const { ajv, validators } = document();
  const ref = `${DOCUMENT_ID}#/${at}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

const describeErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map(
    (error) =>
      `${error.instancePath || '(body)'} ${error.message ?? error.keyword}${
        error.keyword === 'additionalProperties' || error.keyword === 'enum'
          ? ` ${JSON.stringify(error.params)}`
          : ''
      }`,
  );

/** Judges one answer against the document. */
export function checkResponse(observed: ObservedResponse): Verdict {
  const path = new URL(observed.url, 'http://x').pathname;
  const found = findOperation(observed.method.toUpperCase(), path);
  if (!found) {
    const outside = outsideTheDocument(observed.method, path, observed.status);
    if (outside && outside.problem) return checkProblem(observed, path, outside.reason);
    if (outside) return { kind: 'outside', reason: outside.reason };
    return mismatch(
      `${observed.method.toUpperCase()} ${path}`,
      observed,
      'no operation in openapi.json has this method and path, and it is not on the list of answers outside the document',
    );
  }
  const method = observed.method.toLowerCase();
  const operation = `${found.operation.operationId ?? '?'} (${method.toUpperCase()} ${found.route.template})`;
  const documented = documentedResponse(found.operation, observed.status);
  if (!documented) {
    const listed = Object.keys(found.operation.responses).join(', ');
    return mismatch(
      operation,
      observed,
      `status ${observed.status} is not documented (documented: ${listed})`,
    );
  }
  const media = (observed.contentType ?? '').split(';')[0].trim().toLowerCase();
  const content = documented.response.content ?? {};
  const medias = Object.keys(content);
  const noBody = observed.body === null || observed.body === '';
  if (medias.length === 0) {
    if (noBody) return { kind: 'ok', operation };
    return mismatch(
      operation,
      observed,
      `a body (${media || 'no content type'}) where the document has none`,
    );
  }
  if (!medias.includes(media)) {
    return mismatch(
      operation,
      observed,
      `content type ${media || '(none)'} is not the documented ${medias.join(' or ')}`,
    );
  }
  // A HEAD answer carries the GET's status and headers but never its body.
  if (observed.body === null || (noBody && method === 'head') || !content[media].schema) {
    return { kind: 'ok', operation };
  }
  let body: unknown = observed.body;
  if (isJson(media)) {
    try {
      body = JSON.parse(observed.body);
    } catch {
      return mismatch(operation, observed, `the ${media} body is not JSON`);
    }
  }
  const validate = compiled(
    pointer(
      'paths',
      found.route.template,
      found.route.methods[method] ? method : 'get',
      'responses',
      documented.key,
      'content',
      media,
      'schema',
    ),
  );
  if (validate(body)) return { kind: 'ok', operation };
  return mismatch(
    operation,
    observed,
    `the body does not match the ${documented.key} ${media} schema`,
    describeErrors(validate.errors),
  );
}

/** An answer outside the document that must still be a problem, as every error answer is. */
function checkProblem(observed: ObservedResponse, path: string, reason: string): Verdict {
  const where = `${observed.method.toUpperCase()} ${path} (outside the document: ${reason})`;
  const media = (observed.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (media !== 'application/problem+json') {
    return mismatch(
      where,
      observed,
      `content type ${media || '(none)'} is not application/problem+json`,
    );
  }
  if (observed.body === null) return { kind: 'outside', reason };
  let body: unknown;
  try {
    body = JSON.parse(observed.body);
  } catch {
    return mismatch(where, observed, 'the problem body is not JSON');
  }
  const validate = compiled('components/schemas/ProblemDetailsDto');
  if (validate(body)) return { kind: 'outside', reason };
  return mismatch(
    where,
    observed,
    'the body is not a ProblemDetailsDto',
    describeErrors(validate.errors),
  );
}

function mismatch(
  operation: string,
  observed: ObservedResponse,
  problem: string,
  errors?: string[],
): Verdict {
  return {
    kind: 'mismatch',
    mismatch: { operation, status: observed.status, problem, errors, body: observed.body },
  };
}

/** A mismatch as a failing test shows it. */
export function formatMismatch(mismatch: Mismatch): string {
  const body =
    mismatch.body === null
      ? '(not read)'
      : mismatch.body.length > 1500
        ? `${mismatch.body.slice(0, 1500)}…`
        : mismatch.body;
  return [
    `${mismatch.operation} answered ${mismatch.status}: ${mismatch.problem}`,
    ...(mismatch.errors ?? []).map((error) => `  - ${error}`),
    `  body: ${body || '(empty)'}`,
  ].join('\n');
}
