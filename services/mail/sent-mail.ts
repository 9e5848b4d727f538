import { createHash } from 'node:crypto';

/**
 * What is kept of a message after it was sent: its text with every link token (a path
 * segment of 64 hex characters: client links, workspace invitation and reset links)
 * replaced by a reference, `sent:` and the first 8 hex characters of the token's SHA-256.
 * The reference names the link (it matches the stored token hash) but opens nothing.
 */

const LINK_TOKEN = /\/([0-9a-f]{64})(?![0-9a-f])/g;

export const linkReference = (token: string): string =>
  `sent:${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;

/** The text to keep, and the tokens it held (in order). */
export function withoutLinkTokens(text: string): { text: string; tokens: string[] } {
  const tokens: string[] = [];
  const kept = text.replace(LINK_TOKEN, (_match, token: string) => {
    tokens.push(token);
    return `/${linkReference(token)}`;
  });
  return { text: kept, tokens };
}
