import { createHmac } from 'node:crypto';
import { ClickLinkSigner } from '@/tracking/click-link';
import { ReceiptSigner } from '@/tracking/explanation/receipt-signer';

const SECRET = 'test-click-signing-secret-0123456789';
const IMPRESSION = '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e';

describe('ReceiptSigner', () => {
  const signer = new ReceiptSigner(SECRET);
  const receipt = signer.sign(IMPRESSION);
  const [, signature] = receipt.split('.');

  it('issues the impression id, a dot and 12 base64url characters', () => {
    expect(receipt).toMatch(/^019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e\.[A-Za-z0-9_-]{12}$/);
  });

  it('signs with the first 72 bits of an HMAC-SHA256 under a key of its own purpose', () => {
    const key = createHmac('sha256', SECRET).update('adline:receipt/v1').digest();
    const mac = createHmac('sha256', key).update(IMPRESSION).digest();
    expect(Buffer.from(signature, 'base64url')).toEqual(mac.subarray(0, 9));
  });

  it('reads back the impression id of a receipt it issued', () => {
    expect(signer.verify(receipt)).toBe(IMPRESSION);
  });

  it('gives the same receipt on every instance with the same secret', () => {
    expect(new ReceiptSigner(SECRET).sign(IMPRESSION)).toBe(receipt);
  });

  it('refuses a receipt signed with another secret', () => {
    expect(signer.verify(new ReceiptSigner(`${SECRET}-other`).sign(IMPRESSION))).toBeNull();
  });

  it('refuses a receipt whose id was changed to name another impression', () => {
    const other = IMPRESSION.replace(/e$/, 'f');
    expect(signer.verify(`${other}.${signature}`)).toBeNull();
  });

  it('refuses a receipt with one signature character changed', () => {
    const last = signature.at(-1) === 'A' ? 'B' : 'A';
    expect(signer.verify(`${IMPRESSION}.${signature.slice(0, -1)}${last}`)).toBeNull();
  });

  it('is not a click signature: the same id signed for clicks is refused', () => {
    const clickSignature = new ClickLinkSigner(SECRET).sign({
      campaignId: 'c',
      modelId: 'm',
      impressionId: IMPRESSION,
    });
    expect(signer.verify(`${IMPRESSION}.${clickSignature.slice(0, 12)}`)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['no signature', IMPRESSION],
    ['an empty signature', `${IMPRESSION}.`],
    ['a short signature', `${IMPRESSION}.${signature.slice(0, 11)}`],
    ['a long signature', `${receipt}A`],
    ['two dots', `${IMPRESSION}.${signature}.${signature}`],
    ['no id', `.${signature}`],
    ['an id with a slash', `a/b.${signature}`],
    ['an id over 64 characters', `${'a'.repeat(65)}.${signature}`],
    ['a signature outside base64url', `${IMPRESSION}.${signature.slice(0, 11)}+`],
  ])('refuses a malformed receipt: %s', (_, malformed) => {
    expect(signer.verify(malformed)).toBeNull();
  });
});
