import { diffWords } from 'diff';
import type { AnswerStatus } from './contract/statuses.ts';
import type { OnboardingEvent, TemplateSnapshot } from './onboarding-events.ts';

/**
 * Every version of every answer of an onboarding and its reviews, from the onboarding's
 * events (pure: the caller opens the sealed values first). A version is what the client
 * submitted for a field: the field's value when its step was submitted (answers, files,
 * the client's signature), counted from 1. A resubmission with an unchanged value adds no
 * version unless the field was sent back. The diff compares the version last reviewed with
 * the newest one: a word diff for text, before and after for a date and any other value.
 */

export type { AnswerStatus };

export interface AnswerVersion {
  number: number;
  value: unknown;
  submitted_at: string;
}

export interface AnswerReview {
  decision: 'approved' | 'rejected' | 'changes_requested';
  reason: string | null;
  member_id: string;
  reviewed_at: string;
  /** The version reviewed. */
  version: number;
}

export type AnswerDiff =
  | { kind: 'words'; from: number; to: number; parts: { value: string; added: boolean; removed: boolean }[] }
  | { kind: 'values'; from: number; to: number; before: unknown; after: unknown };

export interface AnswerHistory {
  field_id: string;
  step_id: string;
  label: string;
  type: string;
  status: AnswerStatus;
  /** The rejection reason or the note of the latest review while the answer is sent back. */
  reason: string | null;
  /** The value the client holds now (a draft after a change, else the newest version). */
  value: unknown;
  versions: AnswerVersion[];
  reviews: AnswerReview[];
  countersignatures: { member_id: string; signed_at: string }[];
  diff: AnswerDiff | null;
}

/** Values as the client entered them, by event id (null: no longer readable). */
export type OpenedValues = ReadonlyMap<string, unknown>;

interface FieldState {
  draft: unknown;
  answered: boolean;
  files: { file_id: string; file_name: unknown; content_type: string; size_bytes: number }[];
  status: AnswerStatus;
  reason: string | null;
  versions: AnswerVersion[];
  reviews: AnswerReview[];
  countersignatures: { member_id: string; signed_at: string }[];
}

const REVIEWED = {
  response_approved: 'approved',
  response_rejected: 'rejected',
  response_changes_requested: 'changes_requested',
} as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Milliseconds the word diffs of one history may take together. A word diff of two long,
 * very different texts costs far more than their length (4,000 characters rewritten: half
 * a second), so past this budget a diff gives up and shows before and after instead: the
 * review page never holds the event loop for long, however the client rewrote the answers.
 */
export const WORD_DIFF_BUDGET_MS = 20;

/** A submitted step makes a new version of each answered field whose value changed or was sent back. */
function recordSubmit(
  snapshot: TemplateSnapshot,
  fields: Map<string, FieldState>,
  stepId: string,
  submittedAt: string,
): void {
  const step = snapshot.steps.find((candidate) => candidate.id === stepId);
  for (const field of step?.fields ?? []) {
    const state = fields.get(field.id);
    if (!state || !state.answered || state.status === 'approved') continue;
    const last = state.versions.at(-1);
    const sentBack = state.status === 'rejected' || state.status === 'changes_requested';
    if (!last || sentBack || !same(last.value, state.draft)) {
      state.versions.push({
        number: state.versions.length + 1,
        value: state.draft,
        submitted_at: submittedAt,
      });
    }
    Object.assign(state, { status: 'submitted', reason: null });
  }
}

/** The histories of the answered fields, in the template's order. */
function historiesOf(
  snapshot: TemplateSnapshot,
  fields: Map<string, FieldState>,
  diffDeadline: number,
): AnswerHistory[] {
  return snapshot.steps.flatMap((step) =>
    step.fields.flatMap((field) => {
      const state = fields.get(field.id);
      if (!state || (!state.answered && state.versions.length === 0)) return [];
      return [
        {
          field_id: field.id,
          step_id: step.id,
          label: field.label,
          type: field.type,
          status: state.status,
          reason: state.reason,
          value: state.draft,
          versions: state.versions,
          reviews: state.reviews,
          countersignatures: state.countersignatures,
          diff: versionDiff(state, field.type, diffDeadline),
        },
      ];
    }),
  );
}

export function answerHistory(
  snapshot: TemplateSnapshot,
  events: ReadonlyArray<{ id: string; event: OnboardingEvent }>,
  opened: OpenedValues,
): AnswerHistory[] {
  const fields = new Map<string, FieldState>();
  const stateOf = (fieldId: string) => {
    let state = fields.get(fieldId);
    if (!state) {
      state = {
        draft: null,
        answered: false,
        files: [],
        status: 'draft',
        reason: null,
        versions: [],
        reviews: [],
        countersignatures: [],
      };
      fields.set(fieldId, state);
    }
    return state;
  };
  const valueOf = (id: string, fallback: unknown) => (opened.has(id) ? opened.get(id) : fallback);
  const diffDeadline = performance.now() + WORD_DIFF_BUDGET_MS;

  for (const { id, event } of events) {
    switch (event.type) {
      case 'answer_saved': {
        const state = stateOf(event.data.field_id);
        Object.assign(state, { draft: valueOf(id, null), answered: true });
        if (state.status === 'submitted') state.status = 'draft';
        break;
      }
      case 'file.uploaded': {
        const state = stateOf(event.data.field_id);
        const { file_id, content_type, size_bytes } = event.data;
        state.files = [...state.files, { file_id, file_name: valueOf(id, null), content_type, size_bytes }];
        Object.assign(state, { draft: state.files, answered: true });
        break;
      }
      case 'file_removed': {
        const state = stateOf(event.data.field_id);
        state.files = state.files.filter((file) => file.file_id !== event.data.file_id);
        Object.assign(state, { draft: state.files, answered: state.files.length > 0 });
        break;
      }
      case 'signature.signed': {
        const state = stateOf(event.data.field_id);
        if (event.data.signer_role === 'team_member') {
          state.countersignatures.push({
            member_id: event.data.member_id ?? '',
            signed_at: event.data.signed_at,
          });
        } else {
          Object.assign(state, {
            draft: { signer_name: valueOf(id, null), signed_at: event.data.signed_at },
            answered: true,
          });
        }
        break;
      }
      case 'response.submitted':
        recordSubmit(snapshot, fields, event.data.step_id, event.data.submitted_at);
        break;
      case 'response_approved':
      case 'response_rejected':
      case 'response_changes_requested': {
        const state = stateOf(event.data.field_id);
        const reason = event.type === 'response_approved' ? null : event.data.reason;
        state.status = REVIEWED[event.type];
        state.reason = reason;
        state.reviews.push({
          decision: REVIEWED[event.type],
          reason,
          member_id: event.data.member_id,
          reviewed_at: event.data.reviewed_at,
          version: state.versions.length,
        });
        break;
      }
      default:
        break;
    }
  }

  return historiesOf(snapshot, fields, diffDeadline);
}

/**
 * The version last reviewed against the newest one, when a newer one exists: a word diff
 * for two texts while the history's diff budget lasts (`deadline`, performance.now()), else
 * before and after. A date is one value, never words: its diff is the date before and after
 * (a word diff of 1842-03-15 and 1843-07-01 reads as characters, not as dates).
 */
function versionDiff(state: FieldState, type: string, deadline: number): AnswerDiff | null {
  const reviewed = state.reviews.at(-1)?.version ?? 0;
  const newest = state.versions.at(-1);
  const before = state.versions[reviewed - 1];
  if (!before || !newest || newest.number <= reviewed) return null;
  const left = deadline - performance.now();
  const [from, to] = [before.value, newest.value];
  if (typeof from === 'string' && typeof to === 'string' && type !== 'date' && left > 0) {
    const changes = diffWords(from, to, { timeout: Math.ceil(left) });
    if (changes) {
      const parts = changes.map((part) => ({ value: part.value, added: part.added, removed: part.removed }));
      return { kind: 'words', from: before.number, to: newest.number, parts };
    }
  }
  return {
    kind: 'values',
    from: before.number,
    to: newest.number,
    before: before.value,
    after: newest.value,
  };
}
