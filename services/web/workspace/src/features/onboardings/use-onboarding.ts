import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Member, Outcome } from '../../api.ts';
import { listMembers } from '../access/members/api.ts';
import {
  archiveOnboarding,
  cancelOnboarding,
  changeOnboarding,
  getOnboarding,
  reopenOnboarding,
  sendOnboarding,
  unarchiveOnboarding,
} from './api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import { allowedActions, type OnboardingView } from '../clients/records.ts';

type Open = 'send' | 'force' | 'cancel' | 'reopen' | { pin: string } | null;

/** What a reopen asks: a new PIN (empty keeps it), the reason for the client, approved answers to unlock. */
export interface ReopenChoice {
  pin: string;
  reason: string;
  unlock: string[];
}

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

  const load = useCallback(async () => {
    const answer = await getOnboarding(id);
    if (answer.ok) setOnboarding(answer.data.onboarding);
    else if (answer.problem.status === 404 || answer.problem.status === 400) setOnboarding(null);
    else setError(recordProblem(answer.problem, t));
  }, [id]);
  useEffect(() => {
    void load();
    void listMembers().then((answer) => {
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
    const answer = await act(() => sendOnboarding(id, body), t('onboardings.sent'));
    if (!answer.ok && answer.problem.code === 'requires_force') {
      setPending({ pin });
      return setOpen('force');
    }
    setOpen(answer.ok && pin ? { pin } : null);
  };

  const reopen = async ({ pin, reason, unlock }: ReopenChoice) => {
    const body = {
      ...(pin ? { pin } : {}),
      ...(reason ? { reason } : {}),
      ...(unlock.length > 0 ? { unlock_approved: unlock } : {}),
    };
    const answer = await act(() => reopenOnboarding(id, body), t('onboardings.reopened'));
    // Nothing could change: say what to do in the dialog, which stays open.
    if (!answer.ok && answer.problem.code === 'nothing_to_reopen') {
      return setError(t('onboardings.nothingToReopen'));
    }
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
    // A review changes the onboarding's facts too (Changes requested): read it again.
    changed: () => {
      setVersion((v) => v + 1);
      void load();
    },
    act,
    archive: () => act(() => archiveOnboarding(id), t('onboardings.archivedDone')),
    unarchive: () => act(() => unarchiveOnboarding(id), t('onboardings.unarchivedDone')),
    cancel: () => act(() => cancelOnboarding(id), t('onboardings.cancelled')),
    change: (body: Parameters<typeof changeOnboarding>[1], done: string) =>
      act(() => changeOnboarding(id, body), done),
    send,
    reopen,
  };
}

export type OnboardingRecord = ReturnType<typeof useOnboarding>;
