import { HttpException, HttpStatus } from '@nestjs/common';

/** Stable machine codes of every error the API answers (docs/design.md, the publisher contract). */
export const PROBLEM_TITLES = {
  validation_failed: 'Request validation failed',
  malformed_json: 'Malformed JSON body',
  unsupported_media_type: 'Unsupported media type',
  payload_too_large: 'Request body too large',
  bad_request: 'Malformed HTTP request',
  bad_url: 'Malformed URL',
  header_too_large: 'Request headers too large',
  request_timeout: 'Request timeout',
  missing_api_key: 'Missing API key',
  invalid_api_key: 'Invalid API key',
  model_inactive: 'AI model not active',
  no_matching_ad: 'No matching ad',
  campaign_not_found: 'Campaign not found',
  campaign_archived: 'Campaign archived',
  advertiser_not_found: 'Advertiser not found',
  model_not_found: 'AI model not found',
  api_key_not_found: 'API key not found',
  publisher_not_found: 'Publisher not found',
  receipt_not_found: 'Receipt not found',
  view_not_found: 'Ad view not found',
  view_expired: 'Ad view too late',
  payout_not_found: 'Payout not found',
  advertiser_key_not_found: 'Advertiser key not found',
  /** No such route, or /metrics when metrics are off; a missing resource has its own code. */
  not_found: 'Not found',
  unauthorized: 'Authentication required',
  forbidden: 'Forbidden',
  conflict: 'Conflict',
  payout_exceeds_balance: 'Payout exceeds the unpaid balance',
  payout_reference_conflict: 'Payout reference already used',
  email_taken: 'Email already registered',
  key_limit_reached: 'API key limit reached',
  model_locked: 'AI model deactivated by an operator',
  invalid_credentials: 'Invalid email or password',
  invalid_reset_token: 'Invalid or expired reset link',
  invalid_verification_token: 'Invalid or expired verification link',
  rate_limited: 'Too many requests',
  database_unavailable: 'Database unavailable',
  shutting_down: 'Shutting down',
  not_ready: 'Not ready',
  internal: 'Internal server error',
} as const;

export type ProblemCode = keyof typeof PROBLEM_TITLES;

/**
 * Why fetch-ads found no ad, in the `reason` member of its `no_matching_ad` answer, with
 * the answer's `detail`: a refinement of the code for publishers' logs and statistics,
 * never a code of its own, so a client that knows only the code keeps working. A sensitive
 * topic is never named, nor its words: the answer must not teach anyone how to get round
 * the lists, and the publisher's logs must not learn what its users confided.
 */
export const PROBLEM_REASON_DETAILS = {
  no_match: 'No active campaign matches these keywords; try different keywords.',
  no_targeted_match:
    "Campaigns match these keywords, but none targets this user's location or device (user_location, user_device_info).",
  sensitive_topic: 'No ad is shown next to a conversation on a sensitive topic.',
  blocked:
    "Every matching campaign is blocked by the model's controls or the request's excluded_topics.",
  relevance_floor: "No matching campaign is as relevant as the model's relevance floor asks.",
  frequency_cap:
    "This session has been shown as many ads as the model's frequency cap allows; try again later.",
} as const;

export type ProblemReason = keyof typeof PROBLEM_REASON_DETAILS;

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, plus our stable `code` and optional field errors. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: FieldError[];
  reason?: ProblemReason;
}

export const problemType = (code: ProblemCode): string => `urn:adline:problem:${code}`;

/**
 * The one exception every module throws for a client-visible error. The global filter
 * turns it into `application/problem+json`; no call site builds a response body itself.
 */
export class ProblemException extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Response headers that belong to this answer, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
    readonly reason?: ProblemReason,
  ) {
    super(detail, status);
  }

  toBody(): ProblemBody {
    return {
      type: problemType(this.code),
      title: PROBLEM_TITLES[this.code],
      status: this.getStatus(),
      detail: this.detail,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.reason ? { reason: this.reason } : {}),
    };
  }

  static badRequest(code: ProblemCode, detail: string, errors?: FieldError[]): ProblemException {
    return new ProblemException(HttpStatus.BAD_REQUEST, code, detail, errors);
  }

  static notFound(code: ProblemCode, detail: string, reason?: ProblemReason): ProblemException {
    return new ProblemException(HttpStatus.NOT_FOUND, code, detail, undefined, {}, reason);
  }

  static validation(errors: FieldError[]): ProblemException {
    const fields = [...new Set(errors.map((e) => e.field))].join(', ');
    return new ProblemException(
      HttpStatus.BAD_REQUEST,
      'validation_failed',
      `Invalid request: check ${fields}.`,
      errors,
    );
  }
}

/** The media type of every problem body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
