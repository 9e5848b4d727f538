import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, type Member, type Outcome } from '../../api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import { allowedActions, type OnboardingView } from '../clients/records.ts';

type Open = 'send' | 'force' | 'cancel' | 'reopen' | { pin: string } | null;

/**
 * One onboarding as its page reads and changes it: the record, the team's members to assign,
 * the dialog open, and the actions (each shows what it did and reads everything again).
 */
export function useOnboarding(id: string) {
  // Bumped after every change made on this page so the review and the timeline read again.
  const [version, setVersion] = useState(0);
  const [onboarding, setOnboarding] = useState<OnboardingView | null | undefined>(undefined);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [pending, setPending] = useState<{ pin: string }>({ pin: '' });
  const path = `/onboardings/${encodeURIComponent(id)}`;

  const load = useCallback(async () => {
    const answer = await call<{ onboarding: OnboardingView }>('GET', path);
    if (answer.ok) setOnboarding(answer.data.onboarding);
    else if (answer.problem.status === 404 || answer.problem.status === 400) setOnboarding(null);
    else setError(recordProblem(answer.problem, t));
  }, [path]);
  useEffect(() => {
    void load();
    void call<{ data: Member[] }>('GET', '/members').then((answer) => {
      if (answer.ok) setMembers(answer.data.data);
    });
  }, [load]);

  /** Runs an action; on success shows `done` and reads everything again. */
  const act = async (
    request: () => Promise<Outcome<{ onboarding: OnboardingView }>>,
    done: string,
  ): Promise<Outcome<{ onboarding: OnboardingView }>> => {
    setStatus(null);
    const answer = await request();
    if (answer.ok) {
      setError(null);
      setOnboarding(answer.data.onboarding);
      setStatus(done);
      setVersion((v) => v + 1);
    } else if (answer.problem.code !== 'requires_force') {
      setError(recordProblem(answer.problem, t));
    }
    return answer;
  };

  const send = async (pin: string, force: boolean) => {
    const body = { ...(pin ? { pin } : {}), ...(force ? { force: true } : {}) };
    const answer = await act(() => call('POST', `${path}/send`, { body }), t('onboardings.sent'));
    if (!answer.ok && answer.problem.code === 'requires_force') {
      setPending({ pin });
      return setOpen('force');
    }
    setOpen(answer.ok && pin ? { pin } : null);
  };

  const reopen = async (pin: string) => {
    const body = pin ? { pin } : {};
    const answer = await act(() => call('POST', `${path}/reopen`, { body }), t('onboardings.reopened'));
    setOpen(answer.ok && pin ? { pin } : null);
  };

  return {
    onboarding,
    allowed: onboarding ? allowedActions(onboarding) : null,
    members,
    error,
    status,
    open,
    setOpen,
    pending,
    version,
    changed: () => setVersion((v) => v + 1),
    path,
    call,
    act,
    send,
    reopen,
  };
}

export type OnboardingRecord = ReturnType<typeof useOnboarding>;
