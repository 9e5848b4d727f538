import { useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { useAction } from '../../ui/index.ts';
import type { ApiAnswer } from '../../api.ts';
import { previewRule, testRule } from './api.ts';
import { actionOf, placeholderErrors, type RuleDraft } from './rules.ts';

type Preview = ApiAnswer<'/workspace/v1/automation-rules/preview', 'post'>['preview'];
type Sent = ApiAnswer<'/workspace/v1/automation-rules/test', 'post'>['sent'];

/**
 * The rule as typed tried out: a preview rendered by the server for a sample onboarding (the
 * code of real runs) and, for email and webhook actions, Send a test (an email to you, the
 * sample webhook to its URL). A refused placeholder is shown beside its field (`onFieldErrors`).
 */
export function RuleTrial({
  draft,
  onFieldErrors,
}: {
  draft: RuleDraft;
  onFieldErrors: (errors: Record<string, string>) => void;
}) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, run, fail } = useAction();
  const testable = draft.type !== 'create_onboarding';

  const attempt = async (kind: 'preview' | 'test') => {
    setSent(null);
    const body = { trigger: draft.trigger, action: actionOf(draft) };
    const answer = await run(async () => {
      if (kind === 'test') {
        const tested = await testRule(body);
        return tested.ok ? { ok: true as const, sent: tested.data.sent } : tested;
      }
      const previewed = await previewRule(body);
      return previewed.ok ? { ok: true as const, preview: previewed.data.preview } : previewed;
    });
    if (answer === undefined) return;
    if (!answer.ok) {
      const fields = placeholderErrors(answer.problem, t);
      return fields ? onFieldErrors(fields) : fail(answer.problem);
    }
    onFieldErrors({});
    if ('sent' in answer && answer.sent) setSent(sentText(answer.sent));
    else if ('preview' in answer && answer.preview) setPreview(answer.preview);
  };

  return (
    <section class="reminder-preview" aria-labelledby="rule-trial-title">
      <h3 id="rule-trial-title">{t('automations.tryTitle')}</h3>
      <div class="actions">
        <button
          type="button"
          class="button-secondary"
          aria-disabled={busy || undefined}
          onClick={() => void attempt('preview')}
        >
          {t('automations.preview')}
        </button>
        {testable ? (
          <button
            type="button"
            class="button-secondary"
            aria-disabled={busy || undefined}
            onClick={() => void attempt('test')}
          >
            {draft.type === 'send_webhook' ? t('automations.testWebhook') : t('automations.testEmail')}
          </button>
        ) : null}
      </div>
      <div role="status" aria-live="polite">
        {error ? <p class="field-error">{error}</p> : null}
        {sent ? <p>{sent}</p> : null}
      </div>
      {preview ? <PreviewView preview={preview} /> : null}
    </section>
  );
}

function sentText(sent: Sent): string {
  if (sent.kind === 'email') return t('automations.testSentEmail', { email: sent.to });
  return sent.status === null
    ? t('automations.testWebhookFailed', { url: sent.url, reason: sent.outcome })
    : t('automations.testWebhookAnswered', { url: sent.url, status: sent.status });
}

/** The rendered action: an email's envelope and text, a webhook's body. */
function PreviewView({ preview }: { preview: Preview }) {
  if (preview.kind === 'onboarding')
    return <p>{t('automations.previewOnboarding', { email: preview.to })}</p>;
  if (preview.kind === 'webhook')
    return (
      <dl class="facts" aria-label={t('automations.previewLabel')}>
        <dt>{t('automations.previewTo')}</dt>
        <dd>{preview.url}</dd>
        <dt>{t('automations.previewBody')}</dt>
        <dd>
          <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 }}>
            {JSON.stringify(JSON.parse(preview.body), null, 2)}
          </pre>
        </dd>
      </dl>
    );
  return (
    <dl class="facts" aria-label={t('automations.previewLabel')}>
      <dt>{t('automations.previewFrom')}</dt>
      <dd>{preview.from_name}</dd>
      <dt>{t('automations.previewTo')}</dt>
      <dd>{preview.to}</dd>
      <dt>{t('automations.subject')}</dt>
      <dd>{preview.subject}</dd>
      <dt>{t('automations.body')}</dt>
      <dd style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{preview.text}</dd>
    </dl>
  );
}
