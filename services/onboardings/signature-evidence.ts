import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../shared/app-deps.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { isSealed, type SealedValue } from '../../shared/privacy/personal-data-vault.ts';
import type { Onboarding } from './decider/index.ts';
import type { SignatureSigned } from './onboarding-events.ts';
import { signedAnswersOf, signedAnswersSha256, SIGNED_ANSWERS_VERSION } from './signed-answers.ts';
import { findField } from './template-snapshot.ts';

/*
 * The evidence of signatures (docs/decisions/0079): gathered for a member's countersignature
 * here (a client's in ./portal/portal-signing.ts), and read back, opened with the client's
 * key, for the team (GET /workspace/v1/onboardings/:id/signatures).
 */

type VaultDeps = Pick<Platform, 'vault'>;

const open = async ({ vault }: VaultDeps, value: unknown) =>
  isSealed(value) ? await vault.open(value) : typeof value === 'string' ? value : null;

function parseOrNull(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The SHA-256 of the answers on an onboarding now (its opened values and its files). */
export async function answersDigestOf(context: VaultDeps, state: Onboarding): Promise<string> {
  const values: Record<string, unknown> = {};
  for (const [fieldId, answer] of Object.entries(state.answers)) {
    values[fieldId] = isSealed(answer.value)
      ? parseOrNull(await context.vault.open(answer.value))
      : answer.value;
  }
  const isSignature = (fieldId: string) => findField(state.snapshot, fieldId)?.field.type === 'signature';
  return signedAnswersSha256(signedAnswersOf(state.id, values, state.files, isSignature));
}

/** A member's countersignature's evidence: IP and user agent sealed with the client's key. */
export async function memberEvidence(context: VaultDeps, request: FastifyRequest, state: Onboarding) {
  const seal = async (text: string) =>
    ((await context.vault.seal(state.team_id, state.client_id, text)) ?? text) as SealedValue | string;
  return {
    ip: (await seal(request.ip)) as unknown as string,
    user_agent: (await seal((request.headers['user-agent'] ?? '').slice(0, 1000))) as unknown as string,
    answers_sha256: await answersDigestOf(context, state),
    answers_version: SIGNED_ANSWERS_VERSION,
  };
}

/** One signature as the team sees it: who, when, and what stands behind it (null on older ones). */
export interface SignatureWithEvidence {
  id: string;
  field_id: string;
  signer_name: string | null;
  signer_email: string | null;
  signer_role: 'client' | 'team_member';
  member_id: string | null;
  signed_at: string;
  evidence: {
    ip: string | null;
    user_agent: string | null;
    consent_text: string;
    answers_sha256: string;
    answers_version: number;
  } | null;
}

/** Every signature of the onboarding's events, oldest first, its personal values opened. */
export async function signaturesWithEvidence(
  context: VaultDeps,
  events: readonly RecordedEvent[],
): Promise<SignatureWithEvidence[]> {
  const signatures: SignatureWithEvidence[] = [];
  for (const recorded of events) {
    if (recorded.type !== 'signature.signed') continue;
    const data = recorded.data as SignatureSigned['data'];
    const evidence = data.evidence;
    signatures.push({
      id: data.signature_id,
      field_id: data.field_id,
      signer_name: await open(context, data.signer_name),
      signer_email: await open(context, data.signer_email),
      signer_role: data.signer_role,
      member_id: data.member_id,
      signed_at: data.signed_at,
      evidence: evidence
        ? {
            ip: await open(context, evidence.ip),
            user_agent: await open(context, evidence.user_agent),
            consent_text: evidence.consent_text,
            answers_sha256: evidence.answers_sha256,
            answers_version: evidence.answers_version,
          }
        : null,
    });
  }
  return signatures;
}
