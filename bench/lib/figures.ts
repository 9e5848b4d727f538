/** One measured figure of the report, next to its performance target when it has one. */
export interface Figure {
  part: string;
  name: string;
  /** null: not measured in this run (see `note`). */
  value: number | null;
  unit: string;
  /** Formatting precision of the value. */
  digits?: number;
  target?: Target;
  note?: string;
}

export interface Target {
  op: '>=' | '<=' | '==' | '<';
  value: number;
}

export type Verdict = 'pass' | 'miss' | 'n/a' | '';

export function verdict(figure: Figure): Verdict {
  if (!figure.target) return '';
  if (figure.value === null || Number.isNaN(figure.value)) return 'n/a';
  const { op, value } = figure.target;
  const ok =
    op === '>='
      ? figure.value >= value
      : op === '<='
        ? figure.value <= value
        : op === '<'
          ? figure.value < value
          : figure.value === value;
  return ok ? 'pass' : 'miss';
}

export function formatNumber(value: number | null, digits = 0): string {
  if (value === null || Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatTarget(figure: Figure): string {
  if (!figure.target) return '';
  const op = figure.target.op === '>=' ? '≥' : figure.target.op === '<=' ? '≤' : figure.target.op;
  const digits = Number.isInteger(figure.target.value) ? 0 : 2;
  return `${op} ${formatNumber(figure.target.value, digits)} ${figure.unit}`.trim();
}
