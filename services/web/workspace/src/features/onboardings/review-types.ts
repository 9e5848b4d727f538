/** The answers under review as the workspace API gives them (the generated OpenAPI types). */
import type { ApiAnswer } from '../../api.ts';

/** One answered field (GET /workspace/v1/onboardings/{onboarding_id}/answers). */
export type ReviewedAnswer = ApiAnswer<
  '/workspace/v1/onboardings/{onboarding_id}/answers',
  'get'
>['answers'][number];

/**
 * A file in a file field's value: the schema leaves values open (`unknown`), so the screen
 * reads what it links to, the file's id and name.
 */
export interface UploadedFile {
  file_id: string;
  file_name: string | null;
  /** Read from the bytes at upload: the review previews images inline. */
  content_type?: string;
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
