import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed tracking links. The signature binds a click to the impression it came from, so a
 * link cannot be forged for another campaign, model or impression and earn anything.
 *
 * `{base}/api/campaign_click?campaign_id=…&model_id=…&targetLink=…&imp=…&sig=…`
 *
 * `targetLink` is informational and deliberately not signed: the click endpoint redirects
 * to the campaign's stored target, never to this parameter, so tampering with it gains nothing.
 */

export interface ClickIds {
  campaignId: string;
  modelId: string;
  impressionId: string;
}

export interface ClickLinkParams extends ClickIds {
  targetUrl: string;
}

export const CLICK_PATH = 'api/campaign_click';

/** 128 bits of HMAC-SHA256 are plenty against forgery and keep the link short. */
const SIGNATURE_BYTES = 16;
const SIGNATURE_LENGTH = Math.ceil((SIGNATURE_BYTES * 8) / 6);
const SIGNATURE_SHAPE = new RegExp(`^[A-Za-z0-9_-]{${SIGNATURE_LENGTH}}$`);
const MIN_SECRET_BYTES = 16;

/** Separates these MACs from any other use of the same secret, and from future formats. */
const DOMAIN = 'adline/click/v1';

export class ClickLinkSigner {
  private readonly secret: Buffer;
  private readonly endpoints = new Map<string, string>();

  constructor(secret: string | Buffer) {
    this.secret = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.secret.length < MIN_SECRET_BYTES) {
      throw new RangeError(`The click signing secret must be at least ${MIN_SECRET_BYTES} bytes`);
    }
  }

  sign(ids: ClickIds): string {
    return createHmac('sha256', this.secret)
      .update(encodeIds(ids))
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }

  /**
   * False, never an exception, for anything but the exact signature: a click with a bad
   * signature is still redirected and counted as invalid, so the caller needs a verdict.
   * Typed `unknown` because query parameters may arrive missing or repeated (arrays).
   */
  verify(ids: ClickIds, signature: unknown): boolean {
    if (typeof signature !== 'string' || !SIGNATURE_SHAPE.test(signature)) {
      return false;
    }
    // Comparing the text rather than decoded bytes: base64url's last character has spare
    // bits, and only the one canonical spelling should count.
    return timingSafeEqual(Buffer.from(signature), Buffer.from(this.sign(ids)));
  }

  buildLink(baseUrl: string, params: ClickLinkParams): string {
    const query = new URLSearchParams({
      campaign_id: params.campaignId,
      model_id: params.modelId,
      targetLink: params.targetUrl,
      imp: params.impressionId,
      sig: this.sign(params),
    });
    return `${this.endpointOf(baseUrl)}?${query.toString()}`;
  }

  /** The click endpoint for a base URL, worked out once: parsing URLs per ad costs CPU. */
  private endpointOf(baseUrl: string): string {
    let endpoint = this.endpoints.get(baseUrl);
    if (endpoint === undefined) {
      endpoint = new URL(CLICK_PATH, withTrailingSlash(baseUrl)).toString();
      this.endpoints.set(baseUrl, endpoint);
    }
    return endpoint;
  }
}

/**
 * JSON of a fixed-order array: unambiguous whatever the ids contain, so ("a|b", "c") and
 * ("a", "b|c") can never share a signature.
 */
function encodeIds({ campaignId, modelId, impressionId }: ClickIds): string {
  return JSON.stringify([DOMAIN, campaignId, modelId, impressionId]);
}

/** Keeps a path in the base URL (`https://host/adline`) instead of replacing its last segment. */
function withTrailingSlash(baseUrl: string): URL {
  const base = new URL(baseUrl);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) {
    base.pathname += '/';
  }
  return base;
}
