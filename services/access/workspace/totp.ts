import * as OTPAuth from 'otpauth';

/**
 * Two-factor codes (RFC 6238 TOTP through otpauth): 6 digits, 30-second steps, one step of
 * clock drift either way, timed by the service clock.
 */
export const TOTP_ISSUER = 'Client onboarding';
const PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secret: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export const totpUri = (secret: string, email: string): string => totpFor(secret, email).toString();

/**
 * The 30-second time step a right code belongs to, or null for a wrong one. Callers keep the
 * last step accepted per account and refuse a step not after it, so a code works once.
 */
export function totpStep(secret: string, email: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, email).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** Pure: a right code is accepted only when its step comes after the last one used. */
export const stepUnused = (step: number | null, lastStep: number | null): step is number =>
  step !== null && (lastStep === null || step > lastStep);

/** The code at `now` (tests). */
export const totpCode = (secret: string, email: string, now: Date): string =>
  totpFor(secret, email).generate({ timestamp: now.getTime() });
