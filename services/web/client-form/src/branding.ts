/**
 * The team's accent colour as the CSS custom property --accent (set from script: the CSP
 * forbids style attributes in HTML). A colour too light for white text on it is darkened
 * until the pair reaches the WCAG AA contrast of 4.5:1.
 */
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

function channels(hex: string): [number, number, number] {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1);
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastWithWhite(rgb: [number, number, number]): number {
  return 1.05 / (luminance(rgb) + 0.05);
}

/** The colour to use as the accent behind white text: `color`, darkened when needed; null when not a hex colour. */
export function readableAccent(color: string | null | undefined): string | null {
  if (!color || !HEX.test(color.trim())) return null;
  let rgb = channels(color.trim());
  for (let step = 0; step < 40 && contrastWithWhite(rgb) < 4.5; step += 1) {
    rgb = rgb.map((value) => Math.floor(value * 0.92)) as [number, number, number];
  }
  return `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

export function applyAccent(color: string | null | undefined): void {
  const accent = readableAccent(color);
  const root = document.documentElement;
  if (accent) root.style.setProperty('--accent', accent);
  else root.style.removeProperty('--accent');
}
