import { ClickIdSigner, withQueryParameter } from './click-id';

describe('ClickIdSigner', () => {
  const signer = new ClickIdSigner('test-signing-secret-0123456789abcdef');
  const clickId = '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e';

  it('gives the click id back from its token, a short base64url string', () => {
    const token = signer.sign(clickId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(signer.verify(token)).toBe(clickId);
  });

  it('answers null for a forged, altered or foreign token', () => {
    const token = signer.sign(clickId);
    const flipped = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    expect(signer.verify(flipped)).toBeNull();
    expect(signer.verify(`${token}x`)).toBeNull();
    expect(signer.verify('')).toBeNull();
    expect(signer.verify(undefined)).toBeNull();
    expect(signer.verify(['a'])).toBeNull();
    const other = new ClickIdSigner('another-secret-0123456789abcdefgh');
    expect(other.verify(token)).toBeNull();
  });

  it('gives different clicks different tokens', () => {
    expect(signer.sign(clickId)).not.toBe(signer.sign('019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6f'));
  });
});

describe('withQueryParameter', () => {
  it('adds the parameter to a URL without a query', () => {
    expect(withQueryParameter('https://shop.example/boots', 'adl_click', 'T')).toBe(
      'https://shop.example/boots?adl_click=T',
    );
  });

  it('keeps the query and the fragment as they are', () => {
    expect(withQueryParameter('https://s.example/p?q=a+b%20c&x#top', 'adl_click', 'T')).toBe(
      'https://s.example/p?q=a+b%20c&x&adl_click=T#top',
    );
  });

  it('replaces an existing parameter of that name instead of adding it twice', () => {
    expect(
      withQueryParameter('https://s.example/?adl_click=old&a=1&adl_click=2', 'adl_click', 'T'),
    ).toBe('https://s.example/?a=1&adl_click=T');
  });

  it('leaves parameters whose names merely begin the same', () => {
    expect(withQueryParameter('https://s.example/?adl_clicks=1', 'adl_click', 'T')).toBe(
      'https://s.example/?adl_clicks=1&adl_click=T',
    );
  });
});
