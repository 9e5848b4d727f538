/** The workspace API's answers of GET /onboardings/:id/answers (services/onboardings/workspace-review-routes.ts). */
import type { AnswerStatus } from '../../../../../onboardings/contract/statuses.ts';

export type { AnswerStatus };

export interface ReviewedAnswer {
  field_id: string;
  step_id: string;
  label: string;
  type: string;
  status: AnswerStatus;
  reason: string | null;
  value: unknown;
  versions: { number: number; value: unknown; submitted_at: string }[];
  reviews: {
    decision: 'approved' | 'rejected' | 'changes_requested';
    reason: string | null;
    member_name: string;
    reviewed_at: string;
    version: number;
  }[];
  countersignatures: { member_name: string; signed_at: string }[];
  diff:
    | {
        kind: 'words';
        from: number;
        to: number;
        parts: { value: string; added: boolean; removed: boolean }[];
      }
    | { kind: 'values'; from: number; to: number; before: unknown; after: unknown }
    | null;
}

export interface UploadedFile {
  file_id: string;
  file_name: string | null;
  content_type: string;
  size_bytes: number;
}

/** Pure: the files of a file field's value (an array of uploaded files), else none. */
export function filesOf(value: unknown): UploadedFile[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is UploadedFile => typeof item === 'object' && item !== null && 'file_id' in item,
  );
}

/** Pure: an answer's value as one line of text (files and signatures by name). */
export function valueText(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  if (typeof value === 'string') return value;
  const files = filesOf(value);
  if (files.length > 0) return files.map((file) => file.file_name ?? 'file').join(', ');
  if (typeof value === 'object' && 'signer_name' in value)
    return String((value as { signer_name: unknown }).signer_name ?? empty);
  if (Array.isArray(value)) return value.map((item) => valueText(item, empty)).join(', ');
  return JSON.stringify(value);
}
