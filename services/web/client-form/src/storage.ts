/**
 * What the page keeps in the browser, per link: the chosen language in localStorage. Keys
 * carry a hash of the token, not the token. The PIN is kept nowhere: the server's link
 * session (an HttpOnly cookie) keeps the form open after the PIN was entered once.
 */
function tokenKey(token: string): string {
  // FNV-1a, 32 bits, twice with different seeds: a short stable key that does not reveal the token.
  const hash = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < token.length; i += 1) {
      h ^= token.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  };
  return hash(0x811c9dc5) + hash(0x01234567);
}

function read(store: () => Storage, key: string): string | null {
  try {
    return store().getItem(key);
  } catch {
    return null;
  }
}

function write(store: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, value);
  } catch {
    // Storage can be off (private mode, policies); the page works without it.
  }
}

const session = () => window.sessionStorage;
const local = () => window.localStorage;

/** Removes every PIN that an earlier version of the page kept in this tab's sessionStorage. */
export function forgetStoredPins(): void {
  try {
    const store = session();
    const keys = Array.from({ length: store.length }, (_, index) => store.key(index));
    for (const key of keys) if (key?.startsWith('onboarding-pin:')) store.removeItem(key);
  } catch {
    // Storage can be off (private mode, policies): then nothing was kept either.
  }
}
export const storedLanguage = (token: string) => read(local, `onboarding-language:${tokenKey(token)}`);
export const storeLanguage = (token: string, locale: string) =>
  write(local, `onboarding-language:${tokenKey(token)}`, locale);
