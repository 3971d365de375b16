import { createHmac } from 'node:crypto';

import { ClickLinkSigner } from '@/tracking/click-link';

const SECRET = 'test-click-signing-secret-0123456789';
const ids = { campaignId: 'cmp_1', modelId: 'mdl_1', impressionId: 'imp_1' };
const target = 'https://shop.example/boots?color=red&size=42#reviews';

describe('ClickLinkSigner', () => {
  const signer = new ClickLinkSigner(SECRET);

  describe('sign and verify', () => {
    it('accepts the signature it issued for a click', () => {
      expect(signer.verify(ids, signer.sign(ids))).toBe(true);
    });

    it('signs with 128 bits of HMAC-SHA256 in base64url', () => {
      const signature = signer.sign(ids);
      expect(signature).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const full = createHmac('sha256', SECRET)
        .update(JSON.stringify(['adline/click/v1', 'cmp_1', 'mdl_1', 'imp_1']))
        .digest();
      expect(Buffer.from(signature, 'base64url')).toEqual(full.subarray(0, 16));
    });

    it('accepts a Buffer secret the same as its string form', () => {
      expect(new ClickLinkSigner(Buffer.from(SECRET)).sign(ids)).toBe(signer.sign(ids));
    });

    it.each([
      ['another campaign', { ...ids, campaignId: 'cmp_2' }],
      ['another model', { ...ids, modelId: 'mdl_2' }],
      ['another impression', { ...ids, impressionId: 'imp_2' }],
    ])('earns nothing when the link is moved to %s', (_label, forged) => {
      expect(signer.verify(forged, signer.sign(ids))).toBe(false);
    });

    it('earns nothing when the ids are shifted between fields', () => {
      const a = { campaignId: 'a|b', modelId: 'c', impressionId: 'd' };
      const b = { campaignId: 'a', modelId: 'b|c', impressionId: 'd' };
      const c = { campaignId: 'a', modelId: 'b', impressionId: 'c|d' };
      expect(signer.sign(a)).not.toBe(signer.sign(b));
      expect(signer.verify(b, signer.sign(a))).toBe(false);
      expect(signer.verify(c, signer.sign(b))).toBe(false);
    });

    it('earns nothing with a signature from another secret', () => {
      const other = new ClickLinkSigner('another-secret-of-enough-length');
      expect(signer.verify(ids, other.sign(ids))).toBe(false);
    });

    it('earns nothing when one character of the signature is changed', () => {
      const signature = signer.sign(ids);
      const first = signature[0] === 'A' ? 'B' : 'A';
      expect(signer.verify(ids, first + signature.slice(1))).toBe(false);
    });

    it('accepts only the canonical spelling of the signature', () => {
      // The last base64url character of 16 bytes carries 2 bits and 4 spare ones, so
      // flipping a spare bit decodes to the same bytes; only the spelling we issued counts.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const signature = signer.sign(ids);
      const sibling = alphabet[alphabet.indexOf(signature.at(-1) ?? '') ^ 1];
      const variant = signature.slice(0, -1) + sibling;
      expect(Buffer.from(variant, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(signer.verify(ids, variant)).toBe(false);
    });

    it.each([
      ['missing', undefined],
      ['null', null],
      ['empty', ''],
      ['repeated in the query', ['a', 'b']],
      ['a number', 42],
      ['too short', 'abc'],
      ['too long', 'A'.repeat(23)],
      ['not base64url', '!'.repeat(22)],
      ['padded', `${'A'.repeat(21)}=`],
    ])('answers false rather than throwing when the signature is %s', (_label, signature) => {
      expect(signer.verify(ids, signature)).toBe(false);
    });

    it('also earns nothing with the full untruncated HMAC', () => {
      const full = createHmac('sha256', SECRET)
        .update(JSON.stringify(['adline/click/v1', 'cmp_1', 'mdl_1', 'imp_1']))
        .digest('base64url');
      expect(signer.verify(ids, full)).toBe(false);
    });
  });

  it.each([
    ['empty', ''],
    ['15 bytes', 'x'.repeat(15)],
  ])('refuses a signing secret that is %s', (_label, secret) => {
    expect(() => new ClickLinkSigner(secret)).toThrow(RangeError);
  });

  describe('buildLink', () => {
    const params = { ...ids, targetUrl: target };

    it('builds the tracking link of the spec plus the impression and signature', () => {
      const link = new URL(signer.buildLink('https://ads.example', params));
      expect(link.origin + link.pathname).toBe('https://ads.example/api/campaign_click');
      expect([...link.searchParams.keys()]).toEqual([
        'campaign_id',
        'model_id',
        'targetLink',
        'imp',
        'sig',
      ]);
      expect(link.searchParams.get('campaign_id')).toBe('cmp_1');
      expect(link.searchParams.get('model_id')).toBe('mdl_1');
      expect(link.searchParams.get('imp')).toBe('imp_1');
      expect(signer.verify(ids, link.searchParams.get('sig'))).toBe(true);
    });

    it('url-encodes the target so its own query and fragment survive the round trip', () => {
      const link = signer.buildLink('https://ads.example', params);
      expect(link).toContain(
        'targetLink=https%3A%2F%2Fshop.example%2Fboots%3Fcolor%3Dred%26size%3D42%23reviews',
      );
      expect(link).not.toContain('#');
      expect(new URL(link).searchParams.get('targetLink')).toBe(target);
    });

    it('gives the same link whether or not the base URL ends with a slash', () => {
      expect(signer.buildLink('https://ads.example/', params)).toBe(
        signer.buildLink('https://ads.example', params),
      );
    });

    it('keeps a path prefix of the base URL', () => {
      for (const base of ['https://example.com/adline', 'https://example.com/adline/']) {
        expect(signer.buildLink(base, params)).toMatch(
          /^https:\/\/example\.com\/adline\/api\/campaign_click\?campaign_id=cmp_1&/,
        );
      }
    });

    it('ignores a query or fragment left on the base URL', () => {
      expect(signer.buildLink('http://localhost:3000/?x=1#top', params)).toMatch(
        /^http:\/\/localhost:3000\/api\/campaign_click\?campaign_id=cmp_1&model_id=mdl_1&targetLink=/,
      );
    });

    it('encodes ids that contain URL syntax', () => {
      const odd = { campaignId: 'a&b=c', modelId: 'd e', impressionId: 'f#g', targetUrl: target };
      const link = new URL(signer.buildLink('https://ads.example', odd));
      expect(link.searchParams.get('campaign_id')).toBe('a&b=c');
      expect(link.searchParams.get('model_id')).toBe('d e');
      expect(link.searchParams.get('imp')).toBe('f#g');
      expect(signer.verify(odd, link.searchParams.get('sig'))).toBe(true);
    });
  });
});
