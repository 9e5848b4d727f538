import { fork } from 'node:child_process';

/** Messages a bench child process sends to the bench. */
export type ChildMessage<Progress, Result> =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'result'; result: Result }
  | { kind: 'error'; message: string };

/**
 * Runs a bench TypeScript file in a child process (the tsx loader is inherited through
 * execArgv), hands it `input`, and resolves with its result. Used where the figure must
 * not share the bench's process: the load generator (its own event loop, apart from the
 * service's) and the rebuild (its own peak memory).
 */
export function runChild<Input, Progress, Result>(
  file: URL,
  input: Input,
  onProgress: (progress: Progress) => void = () => undefined,
): Promise<Result> {
  return runChildUntil<Input, Progress, Result>(file, input, onProgress, 0).then((result) => result!);
}

/**
 * The same with a deadline: after `deadlineMs` (0: none) the child is stopped and the
 * promise resolves to undefined (the caller keeps what progress told it).
 */
export function runChildUntil<Input, Progress, Result>(
  file: URL,
  input: Input,
  onProgress: (progress: Progress) => void,
  deadlineMs: number,
): Promise<Result | undefined> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const timer =
      deadlineMs > 0
        ? setTimeout(() => {
            settled = true;
            child.kill('SIGKILL');
            resolve(undefined);
          }, deadlineMs)
        : undefined;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
    };
    child.on('message', (message: ChildMessage<Progress, Result>) => {
      if (settled) return;
      if (message.kind === 'progress') onProgress(message.progress);
      else if (message.kind === 'result') {
        settle();
        resolve(message.result);
      } else {
        settle();
        reject(new Error(message.message));
      }
    });
    child.on('error', (error) => {
      if (settled) return;
      settle();
      reject(error);
    });
    child.on('exit', (code) => {
      if (settled) return;
      settle();
      reject(new Error(`${file.pathname} exited with code ${code} before giving a result`));
    });
    child.send({ input });
  });
}

/** The child's side: receives the input, runs `work`, sends its result (or error) and exits. */
export function serveChild<Input, Progress, Result>(
  work: (input: Input, progress: (progress: Progress) => void) => Promise<Result>,
): void {
  const send = (message: ChildMessage<Progress, Result>) =>
    new Promise<void>((resolve) => process.send!(message, () => resolve()));
  process.once('message', (message: { input: Input }) => {
    work(message.input, (progress) => void send({ kind: 'progress', progress }))
      .then((result) => send({ kind: 'result', result }))
      .catch((error: unknown) =>
        send({
          kind: 'error',
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
      )
      .finally(() => process.exit(0));
  });
}
