import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { FieldErrors } from '../validation.ts';

/**
 * A form's field problems: `check(errors)` shows them under their fields and moves focus to
 * the first invalid one; it answers true when there is none.
 */
export function useFieldCheck() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [focusTurn, setFocusTurn] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusTurn === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTurn]);
  const check = useCallback((found: FieldErrors) => {
    setErrors(found);
    if (Object.keys(found).length === 0) return true;
    setFocusTurn((turn) => turn + 1);
    return false;
  }, []);
  return { errors, check, form };
}
