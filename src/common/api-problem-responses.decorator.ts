import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ResponseObject } from '@nestjs/swagger';
import {
  PROBLEM_CONTENT_TYPE,
  PROBLEM_REASON_DETAILS,
  PROBLEM_TITLES,
  type ProblemBody,
  type ProblemCode,
  type ProblemReason,
  problemType,
} from './problem';
import { ProblemDetailsDto } from './problem.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request: a required field is missing or invalid.',
  401: 'Unauthorized: sign in first.',
  403: 'Forbidden.',
  404: 'Not Found.',
  409: 'Conflict.',
  410: 'Gone: too late for this.',
  413: 'Payload Too Large: the body exceeds the configured limit (default 64 KiB).',
  415: 'Unsupported Media Type: send application/json.',
  429: 'Too Many Requests: rate limit exceeded; see the Retry-After header.',
  431: 'Request Header Fields Too Large: the headers exceed what the server reads (any route).',
  500: 'Internal Server Error: retry with exponential backoff.',
  503: 'Service Unavailable: the database did not answer in time; retry after the Retry-After seconds.',
};

export type ProblemExamples = Partial<Record<number, ProblemCode[]>>;

const example = (status: number, code: ProblemCode, reason?: ProblemReason): ProblemBody => ({
  type: problemType(code),
  title: PROBLEM_TITLES[code],
  status,
  detail: reason ? PROBLEM_REASON_DETAILS[reason] : (DETAILS[code] ?? PROBLEM_TITLES[code]),
  code,
  ...(code === 'validation_failed'
    ? { errors: [{ field: 'context_keywords', message: 'context_keywords should not be empty' }] }
    : {}),
  ...(reason ? { reason } : {}),
});

/** Codes answered with a `reason`: one example per reason, the first under the code's name. */
const REASONS: Partial<Record<ProblemCode, ProblemReason[]>> = {
  no_matching_ad: ['no_match', 'no_targeted_match', 'sensitive_topic'],
};

/** A code's named examples: `[name, summary, body]`. */
function examplesOf(status: number, code: ProblemCode): [string, string, ProblemBody][] {
  const reasons = REASONS[code];
  if (!reasons) return [[code, PROBLEM_TITLES[code], example(status, code)]];
  return reasons.map((reason, i) => [
    i === 0 ? code : `${code}_${reason}`,
    `${PROBLEM_TITLES[code]} (${reason})`,
    example(status, code, reason),
  ]);
}

const DETAILS: Partial<Record<ProblemCode, string>> = {
  validation_failed: 'Invalid request: check context_keywords.',
  missing_api_key: "Send the AI model's API key in the service-api-key header.",
  invalid_api_key: 'The API key is incorrect or revoked; verify it or create a new one.',
  model_inactive:
    'The AI model of this key was deactivated by its publisher; reactivate it in the dashboard to serve ads again.',
  campaign_not_found: 'No campaign has this campaign_id.',
  model_not_found: 'No AI model has this id.',
  api_key_not_found: 'This model has no key with this id.',
  publisher_not_found: 'No publisher has this id.',
  receipt_not_found: 'No served ad has this receipt: it is mistyped, or past retention.',
  rate_limited: 'Rate limit of 600 requests per minute exceeded; retry after 12 s.',
  internal: 'An internal error occurred; retry with exponential backoff.',
  database_unavailable: 'The database did not answer in time; retry later.',
};

/**
 * Documents a route's problem responses with an example per code; every route gets 500 as
 * well. 429 only where a route names it: only rate-limited routes can answer it, and the
 * document must not promise what a route never answers. The one place error responses are
 * declared (docs/style.md §8).
 */
export function ApiProblemResponses(examples: ProblemExamples): MethodDecorator & ClassDecorator {
  const all: ProblemExamples = { ...examples, 500: ['internal'] };
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ...Object.entries(all).map(([statusText, codes]) => {
      const status = Number(statusText);
      return ApiResponse({ status, ...problemResponse(status, codes ?? []) });
    }),
  );
}

/** The response object of one problem status, with an example per code. */
export function problemResponse(status: number, codes: ProblemCode[]): ResponseObject {
  return {
    description: DESCRIPTIONS[status] ?? 'Error.',
    headers:
      status === 429
        ? {
            'Retry-After': {
              description: 'Seconds to wait before retrying.',
              schema: { type: 'integer' },
            },
          }
        : undefined,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: getSchemaPath(ProblemDetailsDto) },
        examples: Object.fromEntries(
          codes
            .flatMap((code) => examplesOf(status, code))
            .map(([name, summary, value]) => [name, { summary, value }]),
        ),
      },
    },
  };
}
