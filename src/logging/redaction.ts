/**
 * Where a secret or a person's words could reach a log line, written as pino `redact` paths.
 * Access lines never carry headers or bodies; these paths guard every other line (an error
 * object, a request someone logs while debugging), so a key, token, password, cookie or
 * conversation text is replaced by `[redacted]` wherever it appears under these names.
 */
export const REDACTED_PATHS: string[] = [
  // Credentials in request and response headers, at the top and under req/res.
  ...['headers', 'req.headers', 'request.headers', 'res.headers'].flatMap((headers) => [
    `${headers}.authorization`,
    `${headers}.cookie`,
    `${headers}["set-cookie"]`,
    `${headers}["service-api-key"]`,
  ]),
  // Request bodies hold passwords (register, sign-in) and conversation text (fetch-ads).
  'body',
  'req.body',
  'request.body',
  // The same secrets as named fields, at the top or one level down (e.g. a logged DTO).
  ...['password', 'token', 'apiKey', 'api_key', 'secret', 'conversation', 'cookie'].flatMap(
    (name) => [name, `*.${name}`],
  ),
  // A failed SQL statement's bound values (TypeORM, mysql2) can hold any of the above.
  'err.parameters',
  'err.sql',
  'err.driverError.parameters',
  'err.driverError.sql',
];

export const REDACTED = '[redacted]';
