import { describe, expect, it } from 'vitest';
import { groupByStep, snapshotSteps } from './steps.ts';

describe('answers grouped by step', () => {
  const steps = snapshotSteps({
    steps: [
      { id: 's1', title: 'About you', fields: [] },
      { id: 's2', title: 'Documents', fields: [] },
      { id: 's3', title: 'Empty', fields: [] },
    ],
  });

  it('follows the form’s order with each step’s progress', () => {
    const groups = groupByStep(
      [
        { field_id: 'b', step_id: 's2', status: 'submitted' },
        { field_id: 'a', step_id: 's1', status: 'approved' },
        { field_id: 'c', step_id: 's1', status: 'submitted' },
        { field_id: 'd', step_id: 'gone', status: 'rejected' },
      ],
      steps,
    );
    expect(groups.map((group) => [group.title, group.approved, group.total, group.waiting])).toEqual([
      ['About you', 1, 2, 1],
      ['Documents', 0, 1, 1],
      ['4', 0, 1, 0],
    ]);
  });

  it('reads no steps from a snapshot without them', () => {
    expect(snapshotSteps(null)).toEqual([]);
    expect(snapshotSteps({ steps: [{ title: 'no id' }] })).toEqual([]);
  });
});
