import { describe, expect, it } from 'vitest';
import { groupedKey, qrSvg, sixDigits } from './two-factor.ts';

describe('two-factor set-up helpers', () => {
  it('groups the key by four and accepts six digits with spaces', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXPJBSW')).toBe('JBSW Y3DP EHPK 3PXP JBSW');
    expect(sixDigits(' 123 456 ')).toBe('123456');
    expect(sixDigits('12345')).toBeNull();
    expect(sixDigits('12345a')).toBeNull();
  });

  it('draws the QR code as plain SVG without styles or scripts', () => {
    const svg = qrSvg('otpauth://totp/Service:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Service');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toMatch(/style|script|on\w+=/i);
  });
});
