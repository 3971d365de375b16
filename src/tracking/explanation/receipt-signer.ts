import { timingSafeEqual } from 'node:crypto';
import { keyedHasher } from '@/common/keyed-hash';

/**
 * Receipts: the short id every served ad carries, `<impressionId>.<signature>`, by which an
 * operator finds the impression later ("why was this ad shown?"). Publishers pass receipts
 * on to people, who quote them back: the signature means that a receipt was issued by this
 * service for that impression, so a mistyped one, or one altered to name another
 * impression, is refused before any database read. 72 bits are plenty for that (only
 * operators can look one up) and keep the receipt short enough to quote.
 *
 * Keyed from the click signing secret, under a purpose of its own, so a receipt's MAC is
 * never a click link's and rotating that secret retires both together.
 */
const SIGNATURE_BYTES = 9;
const SIGNATURE_LENGTH = (SIGNATURE_BYTES * 4) / 3;
/** Impression ids are UUIDs; any id this service makes fits. */
const RECEIPT_SHAPE = new RegExp(`^([0-9A-Za-z-]{1,64})\\.([A-Za-z0-9_-]{${SIGNATURE_LENGTH}})$`);
const PURPOSE = 'receipt/v1';

export class ReceiptSigner {
  private readonly mac: (value: string) => string;

  constructor(secret: string) {
    this.mac = keyedHasher(secret, PURPOSE);
  }

  /** The receipt of an impression. */
  sign(impressionId: string): string {
    return `${impressionId}.${this.signature(impressionId)}`;
  }

  /** The impression id of a receipt this service issued; null for anything else. */
  verify(receipt: string): string | null {
    const parts = RECEIPT_SHAPE.exec(receipt);
    if (parts === null) return null;
    const [, impressionId, signature] = parts;
    // The text, not decoded bytes: base64url's last character has spare bits, and only the
    // one spelling this service issues counts.
    const expected = this.signature(impressionId);
    return timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) ? impressionId : null;
  }

  private signature(impressionId: string): string {
    return Buffer.from(this.mac(impressionId).slice(0, SIGNATURE_BYTES * 2), 'hex').toString(
      'base64url',
    );
  }
}
