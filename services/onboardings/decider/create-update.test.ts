import { describe, expect, it } from 'vitest';
import { onboardingDecider } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  MEMBER,
  OTHER_TEAM,
  archived,
  at,
  base,
  cancelled,
  created,
  field,
  snapshot,
  patch,
  createCommand,
} from './test-fixtures.ts';

/** Create an onboarding, change it through PATCH. */
const given = DeciderSpecification.for(onboardingDecider);

describe('PATCH', () => {
  it('archived, missing or another team’s onboarding: target_unavailable', () => {
    given(created(), archived())
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
    given()
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
    given(created())
      .when({ ...patch({ status: 'cancelled' }), data: { team_id: OTHER_TEAM, status: 'cancelled' } })
      .thenThrows('target_unavailable');
  });

  it('due date set, changed, cleared; nothing when unchanged', () => {
    const due = {
      due_date: '2025-03-31T23:59:59.999-04:00',
      due_on: '2025-03-31',
      due_timezone: 'America/New_York',
    };
    given(created())
      .when(patch({ due }))
      .then([
        { type: 'onboarding_updated', data: { ...base, changes: due, updated_at: at(10).toISOString() } },
      ]);
    const withDue: OnboardingEvent = {
      type: 'onboarding_updated',
      data: { ...base, changes: due, updated_at: at(1).toISOString() },
    };
    given(created(), withDue).when(patch({ due })).then([]);
    given(created(), withDue)
      .when(patch({ due: null }))
      .then([
        {
          type: 'onboarding_updated',
          data: {
            ...base,
            changes: { due_date: null, due_on: null, due_timezone: null },
            updated_at: at(10).toISOString(),
          },
        },
      ]);
  });

  it('assigned_to: a current member assigns, null unassigns, anything else is invalid_assignee', () => {
    given(created())
      .when(patch({ assignee: { member_id: MEMBER, is_current_member: true } }))
      .then([
        {
          type: 'onboarding_updated',
          data: { ...base, changes: { assigned_to: MEMBER }, updated_at: at(10).toISOString() },
        },
      ]);
    given(created())
      .when(patch({ assignee: { member_id: MEMBER, is_current_member: false } }))
      .thenThrows('invalid_assignee');
    given(created())
      .when(patch({ assignee: { member_id: null, is_current_member: false } }))
      .then([]);
  });

  it('an invalid assignee wins over an invalid status move, and nothing is decided', () => {
    given(created())
      .when(patch({ status: 'in_progress', assignee: { member_id: MEMBER, is_current_member: false } }))
      .thenThrows('invalid_assignee');
  });

  it('the due date of a closed onboarding can still change (not a status move)', () => {
    given(created(), cancelled('draft'))
      .when(patch({ due: { due_date: '2025-04-01T00:00:00.000Z', due_on: null, due_timezone: null } }))
      .thenTypes(['onboarding_updated']);
  });
});

describe('create', () => {
  it('template missing, client missing or erased', () => {
    given()
      .when(createCommand({ template: null }))
      .thenThrows('template_missing');
    given()
      .when(createCommand({ client: 'missing' }))
      .thenThrows('client_scope_missing');
    given()
      .when(createCommand({ client: 'erased' }))
      .thenThrows('client_erasure_pending');
  });

  it('a gallery template with sample agreement text: gallery_template_copy_required, naming the field', () => {
    const gallery = snapshot({
      fields1: [
        field('f1', 'short_text'),
        field('sig', 'signature', { label: 'Agreement', config: { is_sample_text: true } }),
      ],
    });
    const error = given()
      .when(createCommand({ template: { source: 'gallery', snapshot: gallery } }))
      .thenThrows('gallery_template_copy_required', { field_id: 'sig', step_id: 's1' });
    expect(error.message).toContain('"Agreement"');
    // The team's own template with the same text is created (the send checks it later).
    given()
      .when(createCommand({ template: { source: 'team', snapshot: gallery } }))
      .thenTypes(['onboarding_created']);
  });
});
