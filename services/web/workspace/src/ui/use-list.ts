import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Outcome } from '../../../shared/api/client.ts';
import { t } from '../i18n.ts';
import { problemMessage } from '../problems.ts';

/**
 * A screen's list read from the API (`items` null until read; read again when `version`
 * changes), its status and error lines and the dialog `open` over it. `load` answers whether
 * the read succeeded; `done(message)` closes the dialog, says the message and reads again.
 */
export function useList<T, Open>(list: () => Promise<Outcome<{ data: T[] }>>, version?: number) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const load = useCallback(async () => {
    const answer = await list();
    if (answer.ok) setItems(answer.data.data);
    else setError(problemMessage(answer.problem, t));
    return answer.ok;
  }, []);
  useEffect(() => {
    void load();
  }, [load, version]);
  const done = (message: string) => {
    setOpen(null);
    setError(null);
    setStatus(message);
    void load();
  };
  return { items, error, setError, status, setStatus, open, setOpen, load, done };
}
