import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords are stored as argon2id hashes (@node-rs/argon2's default algorithm, with its
 * default cost: 19 MiB, 2 passes, 1 lane, OWASP's minimum recommendation).
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of a password nobody knows: an unknown email is verified against it, so both take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(hashed: string | null, password: string): Promise<boolean> {
  if (hashed === null) {
    decoy ??= hash('decoy password that matches no account');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(hashed, password).catch(() => false);
}
