/**
 * The signatures of an onboarding with what stands behind each (docs/decisions/0079): who
 * signed (the client as invited, or a team member countersigning), the email, when, the IP
 * address and user agent, the consent text and the SHA-256 of the answers signed
 * (GET /workspace/v1/onboardings/{onboarding_id}/signatures).
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiAnswer } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage } from '../../ui/index.ts';

type Signature = ApiAnswer<
  '/workspace/v1/onboardings/{onboarding_id}/signatures',
  'get'
>['signatures'][number];

const listSignatures = (id: string) =>
  call(
    api.GET('/workspace/v1/onboardings/{onboarding_id}/signatures', {
      params: { path: { onboarding_id: id } },
    }),
  );

/**
 * Each fact's name above its value, at every width: long values (a user agent, a digest)
 * keep the full width and wrap anywhere rather than widen the page on a phone.
 */
const TERM = { fontWeight: 600, marginTop: '0.5rem' } as const;
const VALUE = { margin: 0, overflowWrap: 'anywhere' } as const;

const readable = (value: string | null) => value ?? t('signatures.unreadable');

/** One signature and its evidence, as facts. */
function SignatureFacts({ signature }: { signature: Signature }) {
  const { evidence } = signature;
  const role = t(`signatures.role.${signature.signer_role}`);
  return (
    <li class="signature-evidence" data-signature={signature.id} style={{ marginBottom: '1.5rem' }}>
      <h3>{t('signatures.signer', { name: readable(signature.signer_name), role })}</h3>
      <dl style={{ margin: 0 }}>
        <dt style={TERM}>{t('signatures.field')}</dt>
        <dd style={VALUE}>{signature.label || signature.field_id}</dd>
        <dt style={TERM}>{t('signatures.email')}</dt>
        <dd style={VALUE}>{readable(signature.signer_email)}</dd>
        <dt style={TERM}>{t('signatures.signedAt')}</dt>
        <dd style={VALUE}>
          <time dateTime={signature.signed_at}>{formatDateTime(signature.signed_at)}</time>
        </dd>
        {evidence ? (
          <>
            <dt style={TERM}>{t('signatures.ip')}</dt>
            <dd style={VALUE}>{readable(evidence.ip)}</dd>
            <dt style={TERM}>{t('signatures.userAgent')}</dt>
            <dd style={VALUE}>{readable(evidence.user_agent)}</dd>
            <dt style={TERM}>{t('signatures.consent')}</dt>
            <dd style={VALUE}>{evidence.consent_text}</dd>
            <dt style={TERM}>{t('signatures.answersHash')}</dt>
            <dd style={VALUE}>
              <code>{evidence.answers_sha256}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {evidence ? null : <p class="muted">{t('signatures.noEvidence')}</p>}
    </li>
  );
}

/** The onboarding's signatures, oldest first; nothing while there is none. */
export function SignatureEvidence({ onboardingId, version }: { onboardingId: string; version: number }) {
  const [signatures, setSignatures] = useState<Signature[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      const answer = await listSignatures(onboardingId);
      if (answer.ok) setSignatures(answer.data.signatures);
      else setError(problemMessage(answer.problem, t) || t('signatures.loadFailed'));
    })();
  }, [onboardingId, version]);
  if (!error && (signatures === null || signatures.length === 0)) return null;
  return (
    <section class="section" aria-labelledby="signatures-title">
      <h2 id="signatures-title" class="section-title">
        {t('signatures.title')}
      </h2>
      <ErrorMessage text={error} />
      <ul class="signature-evidence-list" style={{ listStyle: 'none', padding: 0 }}>
        {(signatures ?? []).map((signature) => (
          <SignatureFacts key={signature.id} signature={signature} />
        ))}
      </ul>
    </section>
  );
}
