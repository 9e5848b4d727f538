import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * What a signature signs (docs/decisions/0079): the onboarding's answers at the moment of
 * signing, as the client entered them, and the files then on the form. Signature fields are
 * left out (a signature does not sign itself or another signature; a drawing is part of
 * its signature, not an answer).
 */
export interface SignedAnswers {
  onboarding_id: string;
  /** Each answered field's value as the client entered it (any JSON), by field id. */
  answers: Readonly<Record<string, unknown>>;
  /** The ids of the files on each file field, by field id. */
  files: Readonly<Record<string, readonly string[]>>;
}

/** The version of the canonical form below; recorded with each digest. */
export const SIGNED_ANSWERS_VERSION = 1;

/**
 * The canonical bytes of the signed answers: the UTF-8 bytes of the RFC 8785 (JSON
 * Canonicalization Scheme) text of
 * `{"answers": {...}, "files": {field_id: [file ids sorted]}, "onboarding_id": "...", "v": 1}`
 * — object keys sorted by UTF-16 code units at every depth, no whitespace, numbers and
 * strings as ECMAScript serializes them. Pure: the PDF's audit page shows the same bytes' digest.
 */
export function signedAnswersBytes(signed: SignedAnswers): Buffer {
  const files = Object.fromEntries(
    Object.entries(signed.files).map(([fieldId, ids]) => [fieldId, [...ids].sort()]),
  );
  const text = canonicalize({
    answers: signed.answers,
    files,
    onboarding_id: signed.onboarding_id,
    v: SIGNED_ANSWERS_VERSION,
  });
  if (text === undefined) throw new Error('The signed answers have no JSON form');
  return Buffer.from(text, 'utf8');
}

/** SHA-256 (lowercase hex) of the canonical bytes of the signed answers. */
export function signedAnswersSha256(signed: SignedAnswers): string {
  return createHash('sha256').update(signedAnswersBytes(signed)).digest('hex');
}

/**
 * The signed answers of an onboarding from its opened values and its files: values of
 * signature fields and values that are null (not readable) are left out.
 */
export function signedAnswersOf(
  onboardingId: string,
  values: Readonly<Record<string, unknown>>,
  files: Readonly<Record<string, { field_id: string }>>,
  isSignatureField: (fieldId: string) => boolean,
): SignedAnswers {
  const answers: Record<string, unknown> = {};
  for (const [fieldId, value] of Object.entries(values)) {
    if (value !== null && value !== undefined && !isSignatureField(fieldId)) answers[fieldId] = value;
  }
  const byField: Record<string, string[]> = {};
  for (const [fileId, file] of Object.entries(files)) (byField[file.field_id] ??= []).push(fileId);
  return { onboarding_id: onboardingId, answers, files: byField };
}
