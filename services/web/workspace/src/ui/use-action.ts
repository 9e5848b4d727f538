import { useCallback, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { problemMessage, type Problem } from '../problems.ts';

/**
 * The busy/error/submit sequence of a form or a button: `run(work)` runs one attempt at a
 * time (a second press while one runs does nothing and answers undefined), clears the last
 * error first and is busy until the work answers; `fail(problem)` shows a problem in words.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      return await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  const fail = useCallback((problem: Problem) => setError(problemMessage(problem, t)), []);
  return { busy, error, setError, run, fail };
}
