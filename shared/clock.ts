/** The one source of time. Domain code gets `now` from here, never from `new Date()`. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (TEST_CLOCK=on and tests). */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(seconds: number): Date {
    this.current += seconds * 1000;
    return this.now();
  }

  set(at: Date): void {
    this.current = at.getTime();
  }
}
