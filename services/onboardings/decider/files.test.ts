import { describe, expect, it } from 'vitest';
import { onboardingDecider, type OnboardingCommand, type Onboarding } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { at, base, created, field, sent, snapshot, started } from './test-fixtures.ts';

/**
 * Files of the client, given-when-then: UploadFile keeps the field's file rules (accepted
 * types, number of files, size) and RemoveFile takes a file back until its step is
 * submitted; a file field is answered while it holds at least one file.
 */

/** Step s1 (required): a required file field (PDF or PNG, 2 files, 0.1 MiB) and a text field; step s2 (required): a text field. */
const form = snapshot({
  fields1: [
    field('doc', 'file_upload', {
      config: { accept: ['application/pdf', 'image/png'], max_files: 2, max_size_mb: 0.1 },
    }),
    field('t1', 'short_text', { is_required: false }),
  ],
  fields2: [field('t2', 'short_text', { is_required: false })],
});
const inProgress = [created(form), sent(1, 'draft'), started(1, 'sent')];

const given = DeciderSpecification.for(onboardingDecider);

const upload = (
  fileId: string,
  overrides: Partial<Extract<OnboardingCommand, { type: 'UploadFile' }>['data']> = {},
): OnboardingCommand => ({
  type: 'UploadFile',
  data: {
    token_hash: 'hash-1',
    field_id: 'doc',
    file_id: fileId,
    file_name: `${fileId}.pdf`,
    content_type: 'application/pdf',
    size_bytes: 100,
    ...overrides,
  },
  metadata: { now: at(4) },
});

const uploadedEvent = (fileId: string, overrides: { content_type?: string; size_bytes?: number } = {}) =>
  ({
    type: 'file.uploaded',
    data: {
      ...base,
      step_id: 's1',
      field_id: 'doc',
      file_id: fileId,
      file_name: `${fileId}.pdf`,
      content_type: 'application/pdf',
      size_bytes: 100,
      uploaded_at: at(4).toISOString(),
      ...overrides,
    },
  }) satisfies OnboardingEvent;

const remove = (fileId: string, minutes = 5): OnboardingCommand => ({
  type: 'RemoveFile',
  data: { token_hash: 'hash-1', file_id: fileId },
  metadata: { now: at(minutes) },
});

const removedEvent = (fileId: string, minutes = 5): OnboardingEvent => ({
  type: 'file_removed',
  data: { ...base, step_id: 's1', field_id: 'doc', file_id: fileId, removed_at: at(minutes).toISOString() },
});

const submitS1: OnboardingCommand = {
  type: 'SubmitStep',
  data: { token_hash: 'hash-1', step_id: 's1' },
  metadata: { now: at(6) },
};

describe('UploadFile keeps the file field’s rules', () => {
  it('an accepted type within the limits: file.uploaded; the field is answered', () => {
    given(...inProgress)
      .when(upload('a'))
      .then([uploadedEvent('a')]);
    given(...inProgress)
      .when(upload('b', { content_type: 'image/png' }))
      .then([uploadedEvent('b', { content_type: 'image/png' })]);
    const state = given(...inProgress, uploadedEvent('a')).state as Onboarding;
    expect(state.fulfilled_fields).toEqual(['doc']);
    expect(state.files).toEqual({ a: { field_id: 'doc', step_id: 's1' } });
  });

  it('a type outside config.accept: invalid_body, problem file_type_not_accepted', () => {
    given(...inProgress)
      .when(upload('a', { content_type: 'text/plain' }))
      .thenThrows('invalid_body', {
        field_id: 'doc',
        step_id: 's1',
        problem: {
          code: 'file_type_not_accepted',
          params: { content_type: 'text/plain', accept: 'application/pdf, image/png' },
        },
      });
  });

  it('one file more than config.max_files: invalid_body, problem too_many_files', () => {
    given(...inProgress, uploadedEvent('a'), uploadedEvent('b'))
      .when(upload('c'))
      .thenThrows('invalid_body', {
        field_id: 'doc',
        step_id: 's1',
        problem: { code: 'too_many_files', params: { max_files: 2 } },
      });
    // A removed file frees its place.
    given(...inProgress, uploadedEvent('a'), uploadedEvent('b'), removedEvent('a'))
      .when(upload('c'))
      .then([uploadedEvent('c')]);
  });

  it('over config.max_size_mb: payload_too_large', () => {
    const limit = Math.round(0.1 * 1024 * 1024);
    given(...inProgress)
      .when(upload('a', { size_bytes: limit + 1 }))
      .thenThrows('payload_too_large');
    given(...inProgress)
      .when(upload('a', { size_bytes: limit }))
      .then([uploadedEvent('a', { size_bytes: limit })]);
  });

  it('only a file field takes files: field_not_found otherwise', () => {
    given(...inProgress)
      .when(upload('a', { field_id: 't1' }))
      .thenThrows('field_not_found');
  });
});

describe('RemoveFile', () => {
  it('while answering, before the step is submitted: file_removed', () => {
    given(...inProgress, uploadedEvent('a'))
      .when(remove('a'))
      .then([removedEvent('a')]);
  });

  it('the field stays answered while it holds a file; the last removal unanswers it', () => {
    const two = given(...inProgress, uploadedEvent('a'), uploadedEvent('b'), removedEvent('a'))
      .state as Onboarding;
    expect(two.fulfilled_fields).toEqual(['doc']);
    expect(Object.keys(two.files)).toEqual(['b']);
    const none = given(
      ...inProgress,
      uploadedEvent('a'),
      uploadedEvent('b'),
      removedEvent('a'),
      removedEvent('b'),
    );
    expect((none.state as Onboarding).fulfilled_fields).toEqual([]);
    expect((none.state as Onboarding).files).toEqual({});
    none.when(submitS1).thenThrows('invalid_body');
    given(...inProgress, uploadedEvent('a'), uploadedEvent('b'), removedEvent('a'))
      .when(submitS1)
      .thenTypes(['response.submitted', 'onboarding.completed']);
  });

  it('an unknown file, an already removed one or an inherited property name: file_not_found', () => {
    given(...inProgress)
      .when(remove('nope'))
      .thenThrows('file_not_found');
    given(...inProgress, uploadedEvent('a'), removedEvent('a'))
      .when(remove('a'))
      .thenThrows('file_not_found');
    for (const name of ['constructor', '__proto__', 'toString']) {
      given(...inProgress)
        .when(remove(name))
        .thenThrows('file_not_found');
    }
  });

  it('once the file’s step is submitted: invalid_state (the onboarding still in progress)', () => {
    const submitted: OnboardingEvent = {
      type: 'response.submitted',
      data: { ...base, step_id: 's1', responses: [], progress_pct: 50, submitted_at: at(6).toISOString() },
    };
    given(...inProgress, uploadedEvent('a'), submitted)
      .when(remove('a', 7))
      .thenThrows('invalid_state');
  });

  it('not being answered (sent and not opened, cancelled link, completed): invalid_state or link_inactive', () => {
    given(created(form), sent(1, 'draft')).when(remove('a')).thenThrows('invalid_state');
    given(...inProgress, uploadedEvent('a'), {
      type: 'onboarding_cancelled',
      data: { ...base, from: 'in_progress', cancelled_at: at(5).toISOString() },
    })
      .when(remove('a', 6))
      .thenThrows('link_inactive');
    given(...inProgress, uploadedEvent('a'), {
      type: 'onboarding.completed',
      data: { ...base, progress_pct: 100, completed_at: at(5).toISOString() },
    })
      .when(remove('a', 6))
      .thenThrows('invalid_state');
  });
});
