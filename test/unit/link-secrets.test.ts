import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPin, verifyPin } from '../../services/onboardings/link-secrets.ts';

const SCRYPT = { N: 16384, r: 8, p: 1 };

describe('PIN hashes off the event loop', () => {
  it('keeps the stored format: a hash made by scryptSync verifies, and a new hash is scrypt(pin, salt)', async () => {
    const salt = randomBytes(16).toString('hex');
    const stored = { salt, hash: scryptSync('314159', salt, 32, SCRYPT).toString('hex') };
    expect(await verifyPin('314159', stored)).toBe(true);
    expect(await verifyPin('314158', stored)).toBe(false);

    const fresh = await hashPin('271828');
    expect(fresh.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.hash).toBe(scryptSync('271828', fresh.salt, 32, SCRYPT).toString('hex'));
  });

  it('the event loop turns while a PIN is hashed and verified (the work runs in the thread pool)', async () => {
    const stored = await hashPin('123456');
    const order: string[] = [];
    const started = performance.now();
    const verified = verifyPin('123456', stored).then((ok) => order.push(`verified ${ok}`));
    const hashed = hashPin('654321').then(() => order.push('hashed'));
    const blockedMs = performance.now() - started;
    setImmediate(() => order.push('loop turned'));
    await Promise.all([verified, hashed]);
    expect(order[0]).toBe('loop turned');
    expect(order).toContain('verified true');
    // Starting two scrypt runs of about 50 ms each takes the caller well under one of them.
    expect(blockedMs).toBeLessThan(15);
  });

  it('a malformed PIN is refused without hashing', async () => {
    const stored = await hashPin('123456');
    expect(await verifyPin('12345', stored)).toBe(false);
    expect(await verifyPin('1234567', stored)).toBe(false);
    expect(await verifyPin('abcdef', stored)).toBe(false);
  });
});
