import { describe, expect, it } from 'vitest';
import { activeTokenHash, onboardingDecider, type OnboardingCommand, type Onboarding } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  answered,
  archived,
  at,
  base,
  created,
  field,
  MEMBER,
  OTHER_TEAM,
  sent,
  snapshot,
  started,
  TEAM,
} from './test-fixtures.ts';

/**
 * Review of answers, given-when-then: a member approves, rejects (reason) or asks for
 * changes (note) on a submitted answer; approval locks it; a rejected or changes-requested
 * answer is open again for the client, whose resubmission returns it to submitted (the
 * onboarding stays completed and completes only once).
 */

/** Step s1 (required): two required text fields; step s2 (optional): one optional text field. */
const form = snapshot({
  fields1: [field('f1', 'short_text'), field('f3', 'short_text')],
  fields2: [field('f2', 'short_text', { is_required: false })],
});

const submittedS1 = (minutes = 4, responses = ['f1', 'f3']): OnboardingEvent => ({
  type: 'response.submitted',
  data: {
    ...base,
    step_id: 's1',
    responses: responses.map((id) => ({ response_id: `r-${id}`, field_id: id })),
    progress_pct: 100,
    submitted_at: at(minutes).toISOString(),
  },
});
const completed = (minutes = 4): OnboardingEvent => ({
  type: 'onboarding.completed',
  data: { ...base, progress_pct: 100, completed_at: at(minutes).toISOString() },
});
const review = (
  type: 'response_approved' | 'response_rejected' | 'response_changes_requested',
  fieldId = 'f1',
  minutes = 5,
): OnboardingEvent => {
  const data = {
    ...base,
    step_id: 's1',
    field_id: fieldId,
    response_id: `r-${fieldId}`,
    member_id: MEMBER,
    reviewed_at: at(minutes).toISOString(),
  };
  return type === 'response_approved' ? { type, data } : { type, data: { ...data, reason: 'Blurred' } };
};

const answering = [
  created(form),
  sent(1, 'draft'),
  started(1, 'sent'),
  answered('f1', 's1'),
  answered('f3', 's1'),
];
const done = [...answering, submittedS1(), completed()];

const given = DeciderSpecification.for(onboardingDecider);

const approve = (fieldId = 'f1', team = TEAM): OnboardingCommand => ({
  type: 'ApproveAnswer',
  data: { team_id: team, field_id: fieldId, member_id: MEMBER },
  metadata: { now: at(5) },
});
const reject = (reason = 'Blurred', fieldId = 'f1'): OnboardingCommand => ({
  type: 'RejectAnswer',
  data: { team_id: TEAM, field_id: fieldId, member_id: MEMBER, reason },
  metadata: { now: at(5) },
});
const requestChanges = (reason = 'Blurred'): OnboardingCommand => ({
  type: 'RequestChanges',
  data: { team_id: TEAM, field_id: 'f1', member_id: MEMBER, reason },
  metadata: { now: at(5) },
});
const save = (fieldId = 'f1', responseId = 'r-new', minutes = 6): OnboardingCommand => ({
  type: 'SaveAnswer',
  data: { token_hash: 'hash-1', field_id: fieldId, response_id: responseId, value: 'y' },
  metadata: { now: at(minutes) },
});
const submit = (stepId = 's1'): OnboardingCommand => ({
  type: 'SubmitStep',
  data: { token_hash: 'hash-1', step_id: stepId, values: { f1: 'y', f3: 'x' } },
  metadata: { now: at(7) },
});

describe('reviewing a submitted answer', () => {
  it('approves it: response_approved with the member', () => {
    given(...done)
      .when(approve())
      .then([review('response_approved')]);
  });

  it('rejects it with a reason and asks for changes with a note', () => {
    given(...done)
      .when(reject())
      .then([review('response_rejected')]);
    given(...done)
      .when(requestChanges())
      .then([review('response_changes_requested')]);
  });

  it('reviews the answers of a submitted step while the onboarding is still in progress', () => {
    given(...answering, {
      ...submittedS1(),
      data: { ...(submittedS1().data as object), progress_pct: 50 },
    } as OnboardingEvent)
      .when(approve())
      .thenTypes(['response_approved']);
  });

  it('refuses a reason that is empty or longer than 2000 characters (400 invalid_body)', () => {
    given(...done)
      .when(reject('   '))
      .thenThrows('invalid_body');
    given(...done)
      .when(reject('x'.repeat(2001)))
      .thenThrows('invalid_body');
    given(...done)
      .when(reject('x'.repeat(2000)))
      .thenTypes(['response_rejected']);
  });

  it('refuses an answer that is not submitted: a draft, an approved or a rejected one (409 invalid_state)', () => {
    const notReviewable = 'Only a submitted answer can be reviewed';
    expect(
      given(...answering)
        .when(approve())
        .thenThrows('invalid_state').message,
    ).toBe(notReviewable);
    expect(
      given(...done, review('response_approved'))
        .when(reject())
        .thenThrows('invalid_state').message,
    ).toBe(notReviewable);
    expect(
      given(...done, review('response_rejected'))
        .when(approve())
        .thenThrows('invalid_state').message,
    ).toBe(notReviewable);
    expect(
      given(...done, review('response_rejected'), answered('f1', 's1', 6, 'r-new'))
        .when(approve())
        .thenThrows('invalid_state').message,
    ).toBe(notReviewable);
  });

  it('finds no other team’s onboarding, no archived one and no unknown field (404)', () => {
    given(...done)
      .when(approve('f1', OTHER_TEAM))
      .thenThrows('target_unavailable');
    given(...done, archived(5))
      .when(approve())
      .thenThrows('target_unavailable');
    given(...done)
      .when(approve('nope'))
      .thenThrows('field_not_found');
  });

  it('of two racing reviews of one answer, the second sees the first and is refused', () => {
    const first = given(...done).state as Onboarding;
    const events = onboardingDecider.decide(approve(), first);
    const after = events.reduce(onboardingDecider.evolve, first);
    expect(() => onboardingDecider.decide(reject(), after)).toThrow(
      'Only a submitted answer can be reviewed',
    );
  });
});

describe('what the client may change after a review', () => {
  it('locks an approved answer (409 answer_locked), also while answering', () => {
    given(...done, review('response_approved'))
      .when(save())
      .thenThrows('answer_locked');
    const inProgress = [
      ...answering,
      { ...submittedS1(), data: { ...(submittedS1().data as object), progress_pct: 50 } } as OnboardingEvent,
    ];
    given(...inProgress, review('response_approved'))
      .when(save())
      .thenThrows('answer_locked');
  });

  it('in a completed onboarding, only the answers sent back can change (409 invalid_state)', () => {
    given(...done)
      .when(save())
      .thenThrows('invalid_state');
    given(...done, review('response_rejected'))
      .when(save('f3'))
      .thenThrows('invalid_state');
    given(...done, review('response_changes_requested'))
      .when(save())
      .thenTypes(['answer_saved']);
  });

  it('the first change after a rejection is a new version with a new response id; later changes keep it', () => {
    const first = given(...done, review('response_rejected'));
    expect(
      (onboardingDecider.decide(save('f1', 'r-new'), first.state)[0]!.data as { response_id: string })
        .response_id,
    ).toBe('r-new');
    const second = given(...done, review('response_rejected'), answered('f1', 's1', 6, 'r-new'));
    expect(
      (onboardingDecider.decide(save('f1', 'r-other', 7), second.state)[0]!.data as { response_id: string })
        .response_id,
    ).toBe('r-new');
  });

  it('resubmitting returns the sent-back answers to submitted, keeps approved ones out and does not complete again', () => {
    const journey = given(
      ...done,
      review('response_rejected', 'f1'),
      review('response_approved', 'f3'),
      answered('f1', 's1', 6, 'r-new'),
    );
    const events = onboardingDecider.decide(submit(), journey.state);
    expect(events.map((event) => event.type)).toEqual(['response.submitted']);
    expect((events[0]!.data as { responses: unknown[] }).responses).toEqual([
      { response_id: 'r-new', field_id: 'f1' },
    ]);
    const after = events.reduce(onboardingDecider.evolve, journey.state as never) as Onboarding;
    expect(after.status).toBe('completed');
    expect(after.reviews).toEqual({ f3: { status: 'approved', reason: null } });
  });

  it('refuses a resubmission of a completed onboarding with nothing sent back (409 invalid_state)', () => {
    given(...done)
      .when(submit())
      .thenThrows('invalid_state');
    given(...done, review('response_approved'))
      .when(submit())
      .thenThrows('invalid_state');
  });

  it('the resubmitted answer can be reviewed again', () => {
    const journey = given(...done, review('response_rejected'), answered('f1', 's1', 6, 'r-new'));
    const events = onboardingDecider.decide(submit(), journey.state);
    const after = events.reduce(onboardingDecider.evolve, journey.state as never);
    const approved = onboardingDecider.decide({ ...approve(), metadata: { now: at(8) } }, after);
    expect(approved).toEqual([
      {
        type: 'response_approved',
        data: {
          ...base,
          step_id: 's1',
          field_id: 'f1',
          response_id: 'r-new',
          member_id: MEMBER,
          reviewed_at: at(8).toISOString(),
        },
      },
    ]);
  });
});

describe('sending several answers back in one send', () => {
  const sendBack = (
    answers: { field_id: string; decision: 'reject' | 'request_changes'; reason: string }[],
  ): OnboardingCommand => ({
    type: 'SendBackAnswers',
    data: { team_id: TEAM, member_id: MEMBER, answers },
    metadata: { now: at(5) },
  });

  it('decides one review event per answer, each with its reason', () => {
    const events = onboardingDecider.decide(
      sendBack([
        { field_id: 'f1', decision: 'reject', reason: 'Blurred' },
        { field_id: 'f3', decision: 'request_changes', reason: 'Blurred' },
      ]),
      given(...done).state,
    );
    expect(events).toEqual([review('response_rejected', 'f1'), review('response_changes_requested', 'f3')]);
  });

  it('refuses all when one answer cannot be sent back, none, or a field named twice', () => {
    given(...done, review('response_approved', 'f3'))
      .when(
        sendBack([
          { field_id: 'f1', decision: 'reject', reason: 'Blurred' },
          { field_id: 'f3', decision: 'reject', reason: 'Blurred' },
        ]),
      )
      .thenThrows('invalid_state');
    given(...done)
      .when(sendBack([]))
      .thenThrows('invalid_body');
    given(...done)
      .when(
        sendBack([
          { field_id: 'f1', decision: 'reject', reason: 'Blurred' },
          { field_id: 'f1', decision: 'request_changes', reason: 'Blurred' },
        ]),
      )
      .thenThrows('invalid_body');
    given(...done)
      .when(sendBack([{ field_id: 'f1', decision: 'reject', reason: ' ' }]))
      .thenThrows('invalid_body');
  });
});

describe('the link of a completed onboarding with answers sent back', () => {
  it('keeps working past expires_at while an answer is sent back, not after', () => {
    const expiring = (state: unknown) => ({ ...(state as Onboarding), expires_at: at(6).toISOString() });
    const sentBack = expiring(given(...done, review('response_rejected')).state);
    expect(activeTokenHash(sentBack, at(60))).toBe(sentBack.token_hash);
    expect(activeTokenHash(expiring(given(...done).state), at(60))).toBeNull();
    expect(activeTokenHash(expiring(given(...done, review('response_approved')).state), at(60))).toBeNull();
  });
});
