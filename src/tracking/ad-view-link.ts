import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * View links: `{base}/api/ad-views/<impressionId>.<signature>`, which a publisher's client
 * calls once the ad is on screen. The signature means this service issued the link for that
 * impression, so a view cannot be counted for an impression by guessing its id.
 *
 * Keyed from the click signing secret under a purpose of its own (as receipts are), so a
 * view token is never a click link's or a receipt's signature, and rotating that secret
 * retires all three together. One HMAC per served ad; 128 bits, as click links have.
 */
export const AD_VIEWS_PATH = 'api/ad-views';

const SIGNATURE_BYTES = 16;
const SIGNATURE_LENGTH = Math.ceil((SIGNATURE_BYTES * 8) / 6);
/** Impression ids are UUIDs; any id this service makes fits. */
const TOKEN_SHAPE = new RegExp(`^([0-9A-Za-z-]{1,64})\\.([A-Za-z0-9_-]{${SIGNATURE_LENGTH}})$`);
const PURPOSE = 'adline:ad-view/v1';

export class AdViewLinks {
  private readonly key: Buffer;
  private readonly endpoint: string;

  constructor(secret: string, baseUrl: string) {
    this.key = createHmac('sha256', secret).update(PURPOSE).digest();
    const base = new URL(baseUrl);
    base.search = '';
    base.hash = '';
    // Keeps a path in the base URL (`https://host/adline`) instead of replacing its last segment.
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.endpoint = new URL(AD_VIEWS_PATH, base).toString();
  }

  /** The view URL of an impression. */
  urlOf(impressionId: string): string {
    return `${this.endpoint}/${impressionId}.${this.signature(impressionId)}`;
  }

  /** The impression id of a token this service issued; null for anything else. */
  verify(token: string): string | null {
    const parts = TOKEN_SHAPE.exec(token);
    if (parts === null) return null;
    const [, impressionId, signature] = parts;
    // The text, not decoded bytes: base64url's last character has spare bits, and only the
    // one spelling this service issues counts.
    const expected = this.signature(impressionId);
    return timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) ? impressionId : null;
  }

  private signature(impressionId: string): string {
    return createHmac('sha256', this.key)
      .update(impressionId)
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }
}
