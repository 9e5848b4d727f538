import { describe, expect, it } from 'vitest';
import type { PortalOnboarding } from './api.ts';
import {
  changeable,
  inReviewState,
  linkedField,
  linkedStep,
  sentBack,
  stepsToResubmit,
} from './sent-back.ts';

const onboarding = (status: string, reviews: PortalOnboarding['reviews']) =>
  ({ status, reviews }) as unknown as PortalOnboarding;

describe('answers the team sent back', () => {
  const reviews: PortalOnboarding['reviews'] = [
    { field_id: 'name', status: 'rejected', reason: 'Full name please' },
    { field_id: 'id', status: 'approved', reason: null },
    { field_id: 'sig', status: 'changes_requested', reason: 'Sign again' },
  ];

  it('a completed onboarding with answers sent back is in its review state; only those can change', () => {
    const completed = onboarding('completed', reviews);
    expect(inReviewState(completed)).toBe(true);
    expect([...sentBack(completed).keys()]).toEqual(['name', 'sig']);
    expect(['name', 'id', 'sig', 'other'].map((field) => changeable(completed, field))).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('while answering, every answer but the approved ones can change', () => {
    const answering = onboarding('in_progress', reviews);
    expect(inReviewState(answering)).toBe(false);
    expect(['name', 'id', 'other'].map((field) => changeable(answering, field))).toEqual([true, false, true]);
  });

  it('resubmits the steps holding an answer sent back, in order', () => {
    const steps = [
      { id: 's1', fields: [{ id: 'name' }] },
      { id: 's2', fields: [{ id: 'id' }] },
      { id: 's3', fields: [{ id: 'sig' }] },
    ];
    expect(stepsToResubmit(steps, onboarding('completed', reviews))).toEqual(['s1', 's3']);
  });

  it('a link ?field=<id> opens the step of that answer when the client may change it', () => {
    const steps = [
      { id: 's1', fields: [{ id: 'name' }] },
      { id: 's2', fields: [{ id: 'id' }] },
      { id: 's3', fields: [{ id: 'sig' }] },
    ];
    const completed = onboarding('completed', reviews);
    expect(linkedField('?field=sig')).toBe('sig');
    expect(linkedField('?other=1')).toBeNull();
    expect(linkedStep(steps, completed, 'sig')).toBe(2);
    expect(linkedStep(steps, completed, 'id')).toBe(-1);
    expect(linkedStep(steps, completed, null)).toBe(-1);
    expect(linkedStep(steps, onboarding('in_progress', []), 'id')).toBe(1);
  });
});
