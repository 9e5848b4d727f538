/**
 * Numbers typed in the client's language: "1.234,5" in German, "1,234.5" in English,
 * "1 234,5" in French. The field stores a JSON number, so the text is parsed with the
 * page's own separators (read off the page's number format), and a stored number is shown
 * back the same way.
 */

export interface NumberSymbols {
  decimal: string;
  group: string;
}

export function numberSymbols(locale: string): NumberSymbols {
  return symbolsOf((n) => new Intl.NumberFormat(locale).format(n));
}

/** The separators a number format writes: the character before the fraction and between thousands. */
export function symbolsOf(format: (n: number) => string): NumberSymbols {
  const decimal = /1(\D+)5$/.exec(format(1.5))?.[1] ?? '.';
  const group = /^1(\D+)234\D+567$/.exec(format(1234567))?.[1] ?? ',';
  return { decimal, group };
}

const SPACES = /[\s\u00a0\u202f]/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The number in `text`, null for blank text, undefined when the text is not a number in
 * `locale`. Group separators count only in groups of three after the first digits, so a
 * German "1.5" (a slip or an English decimal) is refused rather than read as 15.
 */
export function parseLocaleNumber(text: string, symbols: NumberSymbols): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const { decimal, group } = symbols;
  // Any space stands for a group separator in the locales that group with spaces.
  const groupIsSpace = /^[\s\u00a0\u202f]$/.test(group);
  let normalized = trimmed.replace(/^[\u2212\u2013]/, '-');
  if (groupIsSpace) normalized = normalized.replace(SPACES, group);
  const groupChar = escape(group);
  const pattern = new RegExp(`^([-+]?)(\\d{1,3}(?:${groupChar}\\d{3})+|\\d+)(?:${escape(decimal)}(\\d+))?$`);
  const match = pattern.exec(normalized);
  if (!match) {
    // A leading decimal separator: ",5" or ".5".
    const fraction = new RegExp(`^([-+]?)${escape(decimal)}(\\d+)$`).exec(normalized);
    if (!fraction) return undefined;
    return Number(`${fraction[1]}0.${fraction[2]}`);
  }
  const integer = (match[2] ?? '').split(group).join('');
  const value = Number(`${match[1]}${integer}${match[3] ? `.${match[3]}` : ''}`);
  return Number.isFinite(value) ? value : undefined;
}

/** A stored number as the client would type it: the page's decimal separator, no grouping. */
export function formatNumberForInput(value: number, symbols: NumberSymbols): string {
  return value
    .toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
    .replace('.', symbols.decimal);
}
