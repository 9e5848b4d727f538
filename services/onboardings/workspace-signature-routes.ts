import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zodApp } from '../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { workspaceErrorResponses } from '../../shared/http/workspace-request.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';
import { teamOnboardingEvents } from './onboarding-stream-view.ts';
import { signaturesWithEvidence } from './signature-evidence.ts';
import { findField } from './template-snapshot.ts';

/*
 * GET /onboardings/:onboarding_id/signatures (workspace, every role): every signature of the
 * onboarding, oldest first, with what stands behind it (docs/decisions/0079): who (name,
 * email, role), when, the IP address and user agent, the consent text and the SHA-256 of
 * the answers signed. Personal values are opened with the client's key; no-store.
 */

const signatureSchema = z.object({
  id: z.string(),
  field_id: z.string(),
  label: z.string().describe("the signature field's label (empty when the field is gone)"),
  signer_name: z.string().nullable(),
  signer_email: z.string().nullable(),
  signer_role: z.enum(['client', 'team_member']),
  member_id: z.string().nullable(),
  signed_at: z.string(),
  evidence: z
    .object({
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      consent_text: z.string(),
      answers_sha256: z.string().describe('SHA-256 (hex) of the canonical bytes of the answers signed'),
      answers_version: z.number().int().describe('the version of those canonical bytes'),
    })
    .nullable()
    .describe('null for signatures recorded before evidence was kept'),
});

/** The onboarding's template snapshot as its events last set it. */
function latestSnapshot(events: readonly RecordedEvent[]): TemplateSnapshot | null {
  let snapshot: TemplateSnapshot | null = null;
  for (const event of events) {
    const data = event.data as { template_snapshot?: TemplateSnapshot };
    if (data.template_snapshot) snapshot = data.template_snapshot;
  }
  return snapshot;
}

export async function workspaceSignatureRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  app.get(
    '/onboardings/:onboarding_id/signatures',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: {
        operationId: 'workspaceListSignatures',
        tags: ['workspace'],
        summary:
          'Every signature with its evidence: signer, email, time, IP address, user agent, consent text and the SHA-256 of the answers signed',
        params: z.object({ onboarding_id: z.string().uuid() }),
        response: {
          200: z.object({ signatures: z.array(signatureSchema) }),
          ...workspaceErrorResponses(),
          404: coded('Unknown onboarding, another team’s or an erased client’s (code target_unavailable)'),
        },
      },
    },
    async (request, reply) => {
      const events = await teamOnboardingEvents(context, request, request.params.onboarding_id);
      const snapshot = latestSnapshot(events);
      const signatures = await signaturesWithEvidence(context, events);
      reply.header('Cache-Control', 'no-store');
      return {
        signatures: signatures.map((signature) => ({
          ...signature,
          label: (snapshot && findField(snapshot, signature.field_id)?.field.label) ?? '',
        })),
      };
    },
  );
}
