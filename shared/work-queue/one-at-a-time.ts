const running = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after the same-named pass of this process has finished: the scheduler loop
 * and POST /admin/v1/work/drain never work one queue at the same time, so a drain returns
 * only after the attempts in flight are recorded. (Other processes are kept apart by row
 * leases.)
 */
export function oneAtATime<T>(context: object, name: string, work: () => Promise<T>): Promise<T> {
  let passes = running.get(context);
  if (!passes) running.set(context, (passes = new Map()));
  const previous = passes.get(name) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  passes.set(name, next);
  void next
    .finally(() => {
      if (passes.get(name) === next) passes.delete(name);
    })
    .catch(() => undefined);
  return next;
}
