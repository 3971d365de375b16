import { clientNetwork } from './client-ip';

describe('clientNetwork', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const network = clientNetwork('2001:db8:1:2::1');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:1:2:3')).toBe(network);
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(network);
    expect(network).toBe('2001:db8:1:2::/64');
  });
});
