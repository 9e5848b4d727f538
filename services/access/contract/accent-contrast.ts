/**
 * The accent colour's contrast rule (WCAG 2.2 AA for normal text: at least 4.5:1 against
 * white, since the client's page draws white text on it and the accent on white). Pure: the
 * service's check (../team-branding.ts) and the Settings screen share it, so the screen says
 * the same ratio the service would refuse.
 */

export const MIN_ACCENT_CONTRAST = 4.5;

/** sRGB channel (0..255) to linear light (WCAG 2.2 relative luminance). */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Contrast ratio (1 to 21) of '#rrggbb' against white. */
export function contrastAgainstWhite(color: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => linear(parseInt(color.slice(start, start + 2), 16)));
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return 1.05 / (luminance + 0.05);
}

/** The ratio as the refusal writes it: rounded down to two decimals ("1.40"), never up to a pass. */
export const ratioText = (ratio: number): string => (Math.floor(ratio * 100) / 100).toFixed(2);
