/** Where a progress bar draws: process.stderr, or anything with `write` (tests). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressBarOptions {
  /** Text before the bar, e.g. "rebuild". */
  label?: string;
  /** What is counted, e.g. "events". */
  unit?: string;
  stream?: ProgressStream;
  /** Bar width in characters (shrinks to fit a narrow terminal). */
  width?: number;
  /** Least time between two redraws on a terminal. */
  minIntervalMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A progress bar for long work (rebuild, export, benchmarks): bar, percent, done/total and
 * rate. On a terminal it redraws one line with \r, at most every `minIntervalMs`; otherwise
 * (CI logs, pipes) it writes a plain line each time another 10% is done.
 */
export class ProgressBar {
  private readonly stream: ProgressStream;
  private readonly label: string;
  private readonly unit: string;
  private readonly width: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;
  private done = 0;
  private lastDrawAt = Number.NEGATIVE_INFINITY;
  private lastTenth = -1;
  private finished = false;

  constructor(
    private total: number,
    options: ProgressBarOptions = {},
  ) {
    this.stream = options.stream ?? process.stderr;
    this.label = options.label ?? '';
    this.unit = options.unit ?? 'items';
    this.width = options.width ?? 30;
    this.minIntervalMs = options.minIntervalMs ?? 100;
    this.now = options.now ?? (() => performance.now());
    this.startedAt = this.now();
  }

  /** Sets how much is done (and, when it became known or grew, the total); redraws when due. */
  update(done: number, total: number = this.total): void {
    if (this.finished) return;
    this.done = done;
    this.total = Math.max(total, done);
    this.draw(false);
  }

  /** Adds `count` to what is done. */
  increment(count = 1): void {
    this.update(this.done + count);
  }

  /** Draws the final state and ends the line. */
  finish(): void {
    if (this.finished) return;
    this.total = Math.max(this.total, this.done);
    this.draw(true);
    this.finished = true;
    if (this.stream.isTTY) this.stream.write('\n');
  }

  /** 0 to 100; an empty total counts as complete. */
  get percent(): number {
    return this.total > 0 ? Math.min(100, Math.floor((this.done / this.total) * 100)) : 100;
  }

  /** Units per second since the bar was created. */
  get rate(): number {
    const seconds = (this.now() - this.startedAt) / 1000;
    return seconds > 0 ? this.done / seconds : 0;
  }

  /** The current line, without control characters. */
  render(barWidth = this.width): string {
    const filled = Math.round((this.percent / 100) * barWidth);
    const bar = `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}]`;
    const counts = `${numberFormat.format(this.done)}/${numberFormat.format(this.total)} ${this.unit}`;
    const rate = `${numberFormat.format(this.rate)} ${this.unit}/s`;
    return [this.label, bar, `${String(this.percent).padStart(3)}%`, counts, rate]
      .filter((part) => part !== '')
      .join(' ');
  }

  private draw(force: boolean): void {
    if (this.stream.isTTY) {
      const at = this.now();
      if (!force && at - this.lastDrawAt < this.minIntervalMs) return;
      this.lastDrawAt = at;
      this.stream.write(`\r${this.render(this.fittingWidth())}\x1b[K`);
      return;
    }
    const tenth = Math.floor(this.percent / 10);
    if (tenth > this.lastTenth || (force && this.lastTenth < 10)) {
      this.lastTenth = Math.max(tenth, force ? 10 : tenth);
      this.stream.write(`${this.render()}\n`);
    }
  }

  /** Shrinks the bar so that the line fits the terminal. */
  private fittingWidth(): number {
    const columns = this.stream.columns;
    if (!columns) return this.width;
    const rest = this.render(0).length - 2;
    return Math.max(5, Math.min(this.width, columns - rest - 3));
  }
}
