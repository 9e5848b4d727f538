import { useCallback, useEffect, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { countersign as countersignAnswer, listAnswers, listPayments, reviewAnswer } from '../api.ts';
import type { OnboardingPayment } from '../payments-model.ts';
import type { ReviewedAnswer } from '../review-types.ts';
import { approveAnswers } from './approve.ts';

export type Decision = 'approve' | 'reject' | 'request_changes';

/**
 * The review's state and actions: the answers and payments (read again on `version`), the
 * answers chosen to send back, the reason asked, and approve / reject / request changes,
 * Approve step and Approve all (the waiting answers shown, less those chosen to send back),
 * and countersign. Each action says what it did and tells the page (`onChanged`).
 */
export function useReview(
  onboardingId: string,
  version: number,
  onChanged: () => void,
  onWaiting?: (count: number) => void,
) {
  const [answers, setAnswers] = useState<ReviewedAnswer[] | null>(null);
  const [payments, setPayments] = useState<OnboardingPayment[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [asking, setAsking] = useState<{
    answer: ReviewedAnswer;
    decision: Exclude<Decision, 'approve'>;
  } | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const chosenAnswers = (answers ?? []).filter(
    (answer) => answer.status === 'submitted' && chosen.includes(answer.field_id),
  );

  const load = useCallback(async () => {
    const [answer, paid] = await Promise.all([listAnswers(onboardingId), listPayments(onboardingId)]);
    if (answer.ok) {
      setAnswers(answer.data.answers);
      onWaiting?.(answer.data.answers.filter((one) => one.status === 'submitted').length);
    } else setError(problemMessage(answer.problem, t));
    if (paid.ok) setPayments(paid.data.payments);
  }, [onboardingId, onWaiting]);
  useEffect(() => {
    void load();
  }, [load, version]);

  async function decide(answer: ReviewedAnswer, decision: Decision, reason?: string): Promise<string | null> {
    const outcome = await reviewAnswer(
      onboardingId,
      answer.field_id,
      reason === undefined ? { decision } : { decision, reason },
    );
    if (!outcome.ok) return problemMessage(outcome.problem, t);
    const done = {
      approve: 'review.approved',
      reject: 'review.rejected',
      request_changes: 'review.changesRequested',
    };
    setError(null);
    setStatus(t(done[decision], { label: answer.label }));
    onChanged();
    return null;
  }

  /** Approve step / Approve all: the waiting answers shown, less those chosen to send back. */
  async function approveMany(group: ReviewedAnswer[]) {
    const ids = group
      .filter((answer) => answer.status === 'submitted' && !chosen.includes(answer.field_id))
      .map((answer) => answer.field_id);
    if (ids.length === 0 || busy) return;
    setBusy(true);
    const outcome = await approveAnswers(onboardingId, ids);
    setBusy(false);
    if (!outcome.ok) return setError(problemMessage(outcome.problem, t));
    setError(null);
    setStatus(t('review.approvedMany', { count: outcome.data.approved.length }));
    onChanged();
  }

  async function countersign(answer: ReviewedAnswer) {
    const outcome = await countersignAnswer(onboardingId, answer.field_id);
    if (!outcome.ok) return setError(problemMessage(outcome.problem, t));
    setError(null);
    setStatus(t('review.countersignDone', { label: answer.label }));
    onChanged();
  }

  return {
    answers,
    payments,
    busy,
    error,
    setError,
    status,
    setStatus,
    asking,
    setAsking,
    chosen,
    setChosen,
    chosenAnswers,
    decide,
    approveMany,
    countersign,
  };
}
