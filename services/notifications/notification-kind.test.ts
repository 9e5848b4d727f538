import { describe, expect, it } from 'vitest';
import { notificationKind } from './notification-kind.ts';

const submitted = (fieldId: string) => ({
  type: 'response.submitted',
  data: { responses: [{ response_id: 'r', field_id: fieldId }] },
});

describe('notificationKind', () => {
  it('names completion, payment and overdue', () => {
    expect(notificationKind({ type: 'onboarding.completed', data: {} }, undefined)).toBe('completed');
    expect(notificationKind({ type: 'payment.succeeded', data: {} }, undefined)).toBe('paid');
    expect(notificationKind({ type: 'onboarding.overdue', data: {} }, undefined)).toBe('overdue');
  });

  it("tells of the client's signature only", () => {
    expect(notificationKind({ type: 'signature.signed', data: { signer_role: 'client' } }, undefined)).toBe(
      'signed',
    );
    expect(
      notificationKind({ type: 'signature.signed', data: { signer_role: 'team_member' } }, undefined),
    ).toBeNull();
  });

  it('a step submitted is a resubmission only when it brings back an answer sent back', () => {
    const sentBack = { reviews: { f1: { status: 'changes_requested' as const } } };
    expect(notificationKind(submitted('f1'), sentBack)).toBe('resubmitted');
    expect(notificationKind(submitted('f1'), { reviews: { f1: { status: 'rejected' as const } } })).toBe(
      'resubmitted',
    );
    expect(
      notificationKind(submitted('f1'), { reviews: { f1: { status: 'approved' as const } } }),
    ).toBeNull();
    expect(notificationKind(submitted('f2'), sentBack)).toBeNull();
    expect(notificationKind(submitted('f1'), undefined)).toBeNull();
  });

  it('other events make none', () => {
    expect(notificationKind({ type: 'onboarding.sent', data: {} }, undefined)).toBeNull();
  });
});
