import helmet from 'helmet';
import { HELMET_OPTIONS, SECURITY_HEADERS } from './security-headers';

describe('SECURITY_HEADERS', () => {
  it("holds helmet's defaults, worked out by helmet itself", () => {
    expect(SECURITY_HEADERS).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(SECURITY_HEADERS['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(SECURITY_HEADERS['content-security-policy']).toContain("object-src 'none'");
  });

  it('leaves out upgrade-insecure-requests, which would break /docs over plain http', () => {
    expect(SECURITY_HEADERS['content-security-policy']).not.toContain('upgrade-insecure-requests');
    // Helmet's own default has it: the option is what removes it.
    const withDefaults: Record<string, string> = {};
    helmet()(
      {} as never,
      {
        setHeader: (name: string, value: string) => (withDefaults[name] = value),
        removeHeader: () => undefined,
      } as never,
      () => undefined,
    );
    expect(withDefaults['Content-Security-Policy']).toContain('upgrade-insecure-requests');
    expect(HELMET_OPTIONS.contentSecurityPolicy).toBeTruthy();
  });

  it('is the same object every answer gets, and cannot be changed by one of them', () => {
    expect(Object.isFrozen(SECURITY_HEADERS)).toBe(true);
    expect(Object.keys(SECURITY_HEADERS).every((name) => name === name.toLowerCase())).toBe(true);
  });
});
