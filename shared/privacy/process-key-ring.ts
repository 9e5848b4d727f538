import type { KeyRing } from './key-encryption-key.ts';

let installed: KeyRing | undefined;

/**
 * The KEKs of this process (PERSONAL_DATA_KEK), installed once at start-up
 * (services/app/runtime.ts) for the readers that have no vault at hand: the projections
 * open sealed values inside their own transactions (openSealed).
 */
export function installProcessKeyRing(ring: KeyRing): void {
  installed = ring;
}

export function processKeyRing(): KeyRing {
  if (!installed)
    throw new Error('no key-encryption key installed: the service start installs PERSONAL_DATA_KEK');
  return installed;
}
