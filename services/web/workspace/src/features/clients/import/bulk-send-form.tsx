import { useEffect, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../../../api.ts';
import { problemMessage } from '../../../problems.ts';
import { t } from '../../../i18n.ts';
import { ErrorMessage, Field, Select, SubmitButton } from '../../../ui/index.ts';
import { listTemplates, type TemplateChoice } from '../../templates/api.ts';
import { bulkSend, type Imported, type SendSummary } from './api.ts';
import { refusalText } from './texts.ts';

type ImportedClient = Imported['clients'][number];

/**
 * "Send a template to these N clients": one action, each send checked as a manual one; the
 * key is made once per form, so a double click (or a retry) sends once.
 */
export function BulkSendForm({
  clients,
  onSent,
}: {
  clients: ImportedClient[];
  onSent: (summary: SendSummary) => void;
}) {
  const [templates, setTemplates] = useState<TemplateChoice[]>([]);
  const [templateId, setTemplateId] = useState('');
  const [due, setDue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key] = useState(newIdempotencyKey);
  useEffect(() => {
    void listTemplates().then((answer) => {
      if (answer.ok) setTemplates(answer.data.data);
    });
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!templateId) return setError(t('clientsImport.templateRequired'));
    setBusy(true);
    const answer = await bulkSend({
      template_id: templateId,
      client_ids: clients.map((client) => client.client_id),
      ...(due ? { due_on: due } : {}),
      idempotency_key: key,
    });
    setBusy(false);
    if (answer.ok) onSent(answer.data);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="bulk-send-title">
      <h3 id="bulk-send-title">{t('clientsImport.sendTitle', { count: clients.length })}</h3>
      <ErrorMessage text={error} />
      <Select
        label={t('clientsImport.template')}
        value={templateId}
        onValue={setTemplateId}
        options={[
          { value: '', label: t('clientsImport.chooseTemplate') },
          ...templates.map((template) => ({ value: template.id, label: template.name })),
        ]}
      />
      <Field label={t('clientsImport.due')} type="date" value={due} onValue={setDue} />
      <SubmitButton busy={busy}>
        {busy ? t('clientsImport.sending') : t('clientsImport.send', { count: clients.length })}
      </SubmitButton>
    </form>
  );
}

/** What went and what was refused, each refusal named with its client and reason. */
export function SendSummaryView({ summary, clients }: { summary: SendSummary; clients: ImportedClient[] }) {
  const byId = new Map(clients.map((client) => [client.client_id, client]));
  const refused = summary.results.filter((result) => result.outcome === 'refused');
  const sent = summary.results.filter((result) => result.outcome === 'sent');
  const named = (id: string) => byId.get(id) ?? { name: id, email: '' };
  return (
    <section aria-labelledby="bulk-send-summary" class="import-summary">
      <h3 id="bulk-send-summary" tabIndex={-1}>
        {t('clientsImport.summary', { sent: summary.sent, refused: summary.refused })}
      </h3>
      {refused.length > 0 ? (
        <>
          <h4>{t('clientsImport.refusedTitle')}</h4>
          <ul>
            {refused.map((result) => (
              <li key={result.client_id}>
                {t('clientsImport.refusal', { ...named(result.client_id), reason: refusalText(result) })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {sent.length > 0 ? (
        <details>
          <summary>{t('clientsImport.sentTitle', { count: sent.length })}</summary>
          <ul>
            {sent.map((result) => (
              <li key={result.client_id}>{named(result.client_id).name}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
