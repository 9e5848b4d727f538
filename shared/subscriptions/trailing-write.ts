/**
 * A write that many calls ask for but that only needs to happen once in a while: the first
 * `schedule()` runs it after `delayMs`, later ones until then join that run, and one asked
 * for while it runs runs once more afterwards. `flush()` runs what is pending now. A failed
 * write is forgotten: the next `schedule()` writes the newer value anyway.
 */
export class TrailingWrite {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly delayMs: number,
    private readonly write: () => Promise<void>,
  ) {}

  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // unref: a pending write alone does not keep a stopping process alive.
    this.timer ??= setTimeout(() => void this.run(), this.delayMs).unref();
  }

  async flush(): Promise<void> {
    await this.running;
    if (this.timer === undefined && !this.again) return;
    await this.run();
  }

  private async run(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.again = false;
    this.running = this.write()
      .catch(() => undefined)
      .finally(() => (this.running = undefined));
    await this.running;
    if (this.again) this.schedule();
  }
}
