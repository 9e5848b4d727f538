import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import type { ClientView } from '../clients/records.ts';
import { Dialog, DialogActions, ErrorMessage, Select } from '../../ui/index.ts';
import { listClients } from '../clients/api.ts';
import { listTemplates, type TemplateChoice } from '../templates/api.ts';
import { createOnboarding } from './api.ts';
import { DueOnField } from './onboarding-fields.tsx';

/** A new draft onboarding: the client, the template and an optional due date. */
export function NewOnboardingDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [clients, setClients] = useState<ClientView[] | null>(null);
  const [templates, setTemplates] = useState<TemplateChoice[] | null>(null);
  const [clientId, setClientId] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void Promise.all([listClients({ limit: 100 }), listTemplates()]).then(([clientList, templateList]) => {
      if (clientList.ok) {
        setClients(clientList.data.data);
        setClientId(clientList.data.data[0]?.id ?? '');
      }
      if (templateList.ok) {
        setTemplates(templateList.data.data);
        setTemplateId(templateList.data.data[0]?.id ?? '');
      }
    });
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !clientId || !templateId) return;
    setBusy(true);
    const answer = await createOnboarding({
      client_id: clientId,
      template_id: templateId,
      ...(dueOn ? { due_on: dueOn } : {}),
    });
    setBusy(false);
    if (answer.ok) onCreated(answer.data.onboarding.id);
    else setError(recordProblem(answer.problem, t));
  };
  return (
    <Dialog title={t('onboardings.newTitle')} onClose={onClose}>
      {clients === null || templates === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorMessage text={error} />
          {clients.length === 0 ? <p class="notice">{t('onboardings.noClients')}</p> : null}
          {templates.length === 0 ? <p class="notice">{t('onboardings.noTemplates')}</p> : null}
          <Select
            label={t('onboardings.client')}
            value={clientId}
            onValue={setClientId}
            options={clients.map((client) => ({
              value: client.id,
              label: `${client.name} (${client.email})`,
            }))}
          />
          <Select
            label={t('onboardings.template')}
            value={templateId}
            onValue={setTemplateId}
            options={templates.map((template) => ({ value: template.id, label: template.name }))}
          />
          <DueOnField label={t('onboardings.dueOn')} value={dueOn} onValue={setDueOn} />
          <DialogActions
            action={t('onboardings.create')}
            disabled={busy || !clientId || !templateId}
            onCancel={onClose}
          />
        </form>
      )}
    </Dialog>
  );
}
