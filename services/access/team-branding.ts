import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { LOGO_TYPES, MAX_LOGO_BYTES } from './contract/logo-limits.ts';
import type { TeamLogo } from './team-events.ts';
import { contrastAgainstWhite, MIN_ACCENT_CONTRAST, ratioText } from './contract/accent-contrast.ts';

export { contrastAgainstWhite, MIN_ACCENT_CONTRAST };

/**
 * Rules for a team's branding on the client's form page:
 *
 * - accent_color is '#rrggbb' whose contrast ratio against white is at least 4.5:1 (WCAG
 *   2.2 AA for normal text), since the page draws white text on it and the accent on white;
 * - logo is a data: URL of a PNG, JPEG or WebP image of at most 256 KiB, its type taken from
 *   its bytes (the file-type package), not from what the URL says.
 */

export const ACCENT_COLOR = /^#[0-9a-fA-F]{6}$/;
/** Longest logo data URL decoded: base64 of MAX_LOGO_BYTES plus a generous header. */
const MAX_LOGO_DATA_URL_LENGTH = Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 100;

/** Why `color` cannot be the accent color, or null when it can. */
export function accentColorProblem(color: string): string | null {
  if (!ACCENT_COLOR.test(color)) return 'accent_color must be a color in the form #rrggbb';
  const ratio = contrastAgainstWhite(color);
  if (ratio >= MIN_ACCENT_CONTRAST) return null;
  return `accent_color ${color} has a contrast ratio of ${ratioText(ratio)}:1 against white; at least ${MIN_ACCENT_CONTRAST}:1 is needed (choose a darker color)`;
}

export interface LogoUpload extends TeamLogo {
  content: Buffer;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The logo of a data URL, or why it is refused. */
export async function readLogoDataUrl(dataUrl: string): Promise<LogoUpload | { problem: string }> {
  const tooLarge = { problem: `logo is larger than ${MAX_LOGO_BYTES / 1024} KiB` };
  if (dataUrl.length > MAX_LOGO_DATA_URL_LENGTH) return tooLarge;
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) return { problem: 'logo must be a base64 data: URL (data:image/png;base64,...)' };
  const content = Buffer.from(match[3]!, 'base64');
  if (content.length === 0) return { problem: 'logo is empty' };
  if (content.length > MAX_LOGO_BYTES) return tooLarge;
  const sniffed = (await fileTypeFromBuffer(content))?.mime;
  const contentType = LOGO_TYPES.find((type) => type === sniffed);
  if (!contentType) return { problem: 'logo must be a PNG, JPEG or WebP image' };
  return {
    content,
    content_type: contentType,
    size_bytes: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}

/** The path the form page loads a team's logo from; `v` changes with the logo, so it caches well. */
export const logoUrl = (teamId: string, sha256: string | null | undefined): string | null =>
  sha256 ? `/brand/${teamId}/logo?v=${sha256.slice(0, 12)}` : null;
