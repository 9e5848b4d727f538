import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Outcome } from '../../../../shared/api/client.ts';
import { t } from '../../i18n.ts';
import { problemMessage, type Problem } from '../../problems.ts';
import {
  ErrorMessage,
  Link,
  ScreenHeading,
  Status,
  SubmitButton,
  useAction,
  useFieldCheck,
} from '../../ui/index.ts';
import { fieldErrors } from '../../validation.ts';

type Check = 'required' | 'email' | 'new-password' | 'password';

/**
 * One access form (sign in and up, password reset, invitation, inviting a member): its
 * values, bound to their fields by `field(name)`; `submit` checks the fields `checks` names
 * (their problems show under them and the first takes focus), sends one attempt at a time and
 * hands a success to `onDone`; a refusal shows in words, `explain` first (null: the usual words).
 */
export function useAccessForm<V extends Record<string, string>, T>({
  initial,
  checks,
  send,
  onDone,
  explain,
}: {
  initial: V;
  checks: (values: V) => Partial<Record<keyof V & string, Check>>;
  send: (values: V) => Promise<Outcome<T>>;
  onDone: (data: T, values: V) => void;
  explain?: (problem: Problem) => string | null;
}) {
  const [values, setValues] = useState<V>(initial);
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const set = <K extends keyof V>(name: K, value: V[K]) => setValues((now) => ({ ...now, [name]: value }));
  const field = (name: keyof V & string) => ({
    value: values[name] as string,
    onValue: (value: string) => set(name, value as V[typeof name]),
    error: fields.errors[name],
  });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const named = Object.entries(checks(values)) as [keyof V & string, Check][];
    const found = fieldErrors(
      Object.fromEntries(named.map(([name, kind]) => [name, { kind, value: values[name] as string }])),
      t,
    );
    if (!fields.check(found)) return setError(null);
    const answer = await run(() => send(values));
    if (answer === undefined) return;
    if (answer.ok) return onDone(answer.data, values);
    setError(explain?.(answer.problem) ?? problemMessage(answer.problem, t));
  };
  return { values, set, field, reset: () => setValues(initial), busy, error, setError, fields, submit };
}

export type AccessForm = Pick<ReturnType<typeof useAccessForm>, 'busy' | 'error' | 'fields' | 'submit'>;

/**
 * The page of an access form: its heading, an intro, the live status (busy, else `notice`)
 * and error, the form (its fields, then its submit button; gone once `done`) and the links
 * under it. The words are the page's messages: `<page>.title`, `.busy` and `.submit`.
 */
export function AccessPage({
  page,
  intro,
  notice = null,
  form,
  done,
  children,
  links,
}: {
  page: 'signIn' | 'signUp' | 'invitation' | 'forgot' | 'reset';
  intro?: string;
  notice?: string | null;
  form: AccessForm;
  done?: boolean;
  children: ComponentChildren;
  links: ComponentChildren;
}) {
  return (
    <>
      <ScreenHeading>{t(`${page}.title`)}</ScreenHeading>
      {intro ? <p>{intro}</p> : null}
      <Status text={form.busy ? t(`${page}.busy`) : notice} />
      <ErrorMessage text={form.error} />
      {done ? null : (
        <form ref={form.fields.form} onSubmit={(event) => void form.submit(event)} noValidate>
          {children}
          <SubmitButton busy={form.busy}>{t(`${page}.submit`)}</SubmitButton>
        </form>
      )}
      {links}
    </>
  );
}

/** The way back to signing in under an access page, after `lead` words if any. */
export function SignInLink({
  navigate,
  lead,
  children,
}: {
  navigate: (path: string) => void;
  lead?: string;
  children: ComponentChildren;
}) {
  return (
    <p class="links">
      {lead ? `${lead} ` : null}
      <Link href="/workspace/sign-in" navigate={navigate}>
        {children}
      </Link>
    </p>
  );
}
