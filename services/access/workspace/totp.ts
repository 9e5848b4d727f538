import * as OTPAuth from 'otpauth';

/**
 * Two-factor codes (RFC 6238 TOTP through otpauth): 6 digits, 30-second steps, one step of
 * clock drift either way, timed by the service clock.
 */
export const TOTP_ISSUER = 'Client onboarding';

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secret: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export const totpUri = (secret: string, email: string): string => totpFor(secret, email).toString();

export function totpValid(secret: string, email: string, code: string, now: Date): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secret, email).validate({ token: code, timestamp: now.getTime(), window: 1 }) !== null;
}

/** The code at `now` (tests). */
export const totpCode = (secret: string, email: string, now: Date): string =>
  totpFor(secret, email).generate({ timestamp: now.getTime() });
