import { ProgressBar } from '../../shared/cli/progress-bar.ts';

/** One step of the bench with a progress bar (shared/cli/progress-bar.ts) on stderr. */
export interface Phase {
  update(done: number): void;
  /** Ends the bar and prints a one-line summary under it. */
  done(summary?: string): void;
}

export interface Progress {
  phase(label: string, total: number, unit?: string): Phase;
  log(line: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const log = (line: string) => void stream.write(`${line}\n`);
  return {
    phase(label, total, unit = 'ops') {
      const bar = new ProgressBar(total, { label: label.padEnd(28), unit, stream });
      return {
        update: (done) => bar.update(done),
        done(summary) {
          bar.finish();
          if (summary) log(`  ${summary}`);
        },
      };
    },
    log,
  };
}
