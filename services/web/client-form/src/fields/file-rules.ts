/**
 * What the page tells and checks before a file leaves the device: the accepted types in
 * words people know ("PDF, PNG, JPEG"), the size limit and the number of files. The server
 * sniffs every upload and has the last word; these checks spare the client a wasted upload.
 */
import type { AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';

/** What the client knows a file type as, and the file name endings it carries. */
const TYPES: Record<string, { name: string; extensions: string[] }> = {
  'application/pdf': { name: 'PDF', extensions: ['.pdf'] },
  'image/png': { name: 'PNG', extensions: ['.png'] },
  'image/jpeg': { name: 'JPEG', extensions: ['.jpg', '.jpeg'] },
  'image/webp': { name: 'WebP', extensions: ['.webp'] },
  'image/heic': { name: 'HEIC', extensions: ['.heic', '.heif'] },
  'image/gif': { name: 'GIF', extensions: ['.gif'] },
  'text/plain': { name: 'TXT', extensions: ['.txt'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    name: 'DOCX',
    extensions: ['.docx'],
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    name: 'XLSX',
    extensions: ['.xlsx'],
  },
};

/** Types a browser may report for a file the catalogue knows under another name. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heif': 'image/heic',
  'image/x-png': 'image/png',
};

export function fileTypeName(mime: string): string {
  const known = TYPES[mime];
  if (known) return known.name;
  const subtype = mime.split('/')[1] ?? mime;
  return subtype.replace(/^(x-|vnd\.)/, '').toUpperCase();
}

/** The accepted types as one list in the client's language: "PDF, PNG, JPEG". */
export function fileTypeNames(accept: readonly string[], locale: string): string {
  const names = [...new Set(accept.map(fileTypeName))];
  return new Intl.ListFormat(locale, { type: 'conjunction', style: 'narrow' }).format(names);
}

/** The picker's accept attribute: the types and their name endings (some phones report no type for HEIC). */
export function acceptAttribute(accept: readonly string[]): string {
  return [...accept, ...accept.flatMap((mime) => TYPES[mime]?.extensions ?? [])].join(',');
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot).toLowerCase();
};

/** Whether a file looks like one of the accepted types, by its reported type or else its name. */
export function fileTypeAccepted(file: { name: string; type: string }, accept: readonly string[]): boolean {
  const reported = ALIASES[file.type] ?? file.type;
  if (reported && reported !== 'application/octet-stream') return accept.includes(reported);
  const extension = extensionOf(file.name);
  return accept.some((mime) => TYPES[mime]?.extensions.includes(extension));
}

export interface FileRules {
  accept: string[];
  max_files: number;
  max_size_bytes: number;
}

export interface FileCheck<F> {
  accepted: F[];
  refused: { file: F; problem: AnswerProblem }[];
}

/**
 * Splits chosen files into those to upload and those refused, with the problem of each:
 * a type not accepted, a file over the size limit, or one more than the field takes
 * beside the `present` files already uploaded.
 */
export function checkFiles<F extends { name: string; type: string; size: number }>(
  files: readonly F[],
  rules: FileRules,
  present: number,
): FileCheck<F> {
  const result: FileCheck<F> = { accepted: [], refused: [] };
  for (const file of files) {
    if (!fileTypeAccepted(file, rules.accept)) {
      result.refused.push({ file, problem: { code: 'file_type_not_accepted' } });
    } else if (file.size > rules.max_size_bytes) {
      result.refused.push({
        file,
        problem: { code: 'file_too_large', params: { size: rules.max_size_bytes } },
      });
    } else if (present + result.accepted.length >= rules.max_files) {
      result.refused.push({ file, problem: { code: 'too_many_files', params: { max: rules.max_files } } });
    } else result.accepted.push(file);
  }
  return result;
}

/** What a refused upload or removal tells the client: a field problem, or a message key of the page. */
export type Refusal =
  | { problem: AnswerProblem }
  | { message: 'errors.network' | 'errors.generic' }
  | { message: 'errors.busy'; seconds: number };

/**
 * The client's words for a failed call: the server's field problem (a type it sniffed and
 * refused, one file too many), a file over the size limit (413), too many requests, no
 * connection, or something else.
 */
export function refusalOf(error: unknown, rules: Pick<FileRules, 'max_files' | 'max_size_bytes'>): Refusal {
  const failure = (error ?? {}) as {
    status?: unknown;
    code?: unknown;
    details?: { problem?: AnswerProblem } | null;
    retryAfterSeconds?: unknown;
  };
  const status = typeof failure.status === 'number' ? failure.status : -1;
  if (status === 0) return { message: 'errors.network' };
  if (status === 413) return { problem: { code: 'file_too_large', params: { size: rules.max_size_bytes } } };
  if (status === 429) {
    const seconds = typeof failure.retryAfterSeconds === 'number' ? failure.retryAfterSeconds : 30;
    return { message: 'errors.busy', seconds: Math.max(1, Math.ceil(seconds)) };
  }
  const problem = failure.details?.problem;
  if (status === 400 && problem && typeof problem.code === 'string') {
    if (problem.code === 'too_many_files' && problem.params?.max === undefined) {
      return { problem: { code: 'too_many_files', params: { max: rules.max_files } } };
    }
    return { problem };
  }
  return { message: 'errors.generic' };
}
