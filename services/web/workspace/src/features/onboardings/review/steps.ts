/** Pure: the answers under review grouped by the step of the form they belong to. */

export interface StepTitle {
  id: string;
  title: string;
}

export interface StepGroup<A> {
  id: string;
  title: string;
  answers: A[];
  /** Answers approved, of all answered ones in the step. */
  approved: number;
  total: number;
  /** Answers the client submitted that wait for the team. */
  waiting: number;
}

/** The steps of a template snapshot (the onboarding's `template_snapshot`), in form order. */
export function snapshotSteps(snapshot: unknown): StepTitle[] {
  const steps = (snapshot as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((step: unknown) => {
    const { id, title } = (step ?? {}) as { id?: unknown; title?: unknown };
    return typeof id === 'string' ? [{ id, title: typeof title === 'string' ? title : '' }] : [];
  });
}

/**
 * Groups answers by step in the form's order (steps without answers are left out; an answer
 * of a step the snapshot no longer names goes last, under its step id), each with its
 * progress: approved of total, and how many wait for review.
 */
export function groupByStep<A extends { step_id: string; status: string }>(
  answers: readonly A[],
  steps: readonly StepTitle[],
): StepGroup<A>[] {
  const order = [...steps.map((step) => step.id)];
  for (const answer of answers) if (!order.includes(answer.step_id)) order.push(answer.step_id);
  return order.flatMap((id, index) => {
    const mine = answers.filter((answer) => answer.step_id === id);
    if (mine.length === 0) return [];
    const title = steps.find((step) => step.id === id)?.title || String(index + 1);
    return [
      {
        id,
        title,
        answers: mine,
        approved: mine.filter((answer) => answer.status === 'approved').length,
        total: mine.length,
        waiting: mine.filter((answer) => answer.status === 'submitted').length,
      },
    ];
  });
}
