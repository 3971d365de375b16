import { ClickLinkSigner } from '@/tracking/click-link';
import { AdViewLinks } from '@/tracking/ad-view-link';
import { ReceiptSigner } from '@/tracking/explanation/receipt-signer';

const SECRET = 'a-click-signing-secret-of-32-bytes!';
const IMPRESSION = '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e';

describe('AdViewLinks', () => {
  const links = new AdViewLinks(SECRET, 'https://ads.example.com/adline');
  const url = links.urlOf(IMPRESSION);
  const token = url.split('/').pop()!;

  it('builds the view URL under the base URL, path kept', () => {
    expect(url).toMatch(
      /^https:\/\/ads\.example\.com\/adline\/api\/ad-views\/019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e\.[A-Za-z0-9_-]{22}$/,
    );
  });

  it('reads back the impression id of a token it issued, on any instance with the secret', () => {
    expect(new AdViewLinks(SECRET, 'http://localhost:3000').verify(token)).toBe(IMPRESSION);
  });

  it('refuses a token signed with another secret, or naming another impression', () => {
    expect(new AdViewLinks(`${SECRET}x`, 'http://localhost').verify(token)).toBeNull();
    expect(links.verify(token.replace('6e.', '6f.'))).toBeNull();
  });

  it('never accepts a click signature or a receipt as a view token', () => {
    const sig = new ClickLinkSigner(SECRET).sign({
      campaignId: 'c',
      modelId: 'm',
      impressionId: IMPRESSION,
    });
    expect(links.verify(`${IMPRESSION}.${sig}`)).toBeNull();
    expect(links.verify(new ReceiptSigner(SECRET).sign(IMPRESSION))).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['no signature', IMPRESSION],
    ['a long signature', `${token}A`],
    ['a path', `../${token}`],
  ])('refuses a malformed token: %s', (_, malformed) => {
    expect(links.verify(malformed)).toBeNull();
  });
});
