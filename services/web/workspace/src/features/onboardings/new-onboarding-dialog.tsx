import { useEffect, useId, useState } from 'preact/hooks';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import { Dialog, DialogActions, ErrorMessage, Field, Select } from '../../ui/index.ts';
import { listClients } from '../clients/api.ts';
import { listTemplates, type TemplateChoice } from '../templates/api.ts';
import { createOnboarding } from './api.ts';
import { DueOnField } from './onboarding-fields.tsx';
import './onboarding-review.css';

/** The recipient of a new onboarding: the client's id, name and email. */
export interface Recipient {
  id: string;
  name: string;
  email: string;
}

/** How many matching clients the dialog offers at once (search narrows a long list). */
const CLIENT_CHOICES = 20;

/**
 * A new draft onboarding: the client, the template and an optional due date. No client is
 * chosen for the member (decision 0090: a preselected first client once sent a draft to the
 * wrong person): from the Onboardings list the member searches and picks one; from a
 * client's page the client is given and fixed. The button names the recipient.
 */
export function NewOnboardingDialog({
  client,
  onClose,
  onCreated,
}: {
  /** Given from a client's page: the draft is for this client, not to be changed here. */
  client?: Recipient;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [templates, setTemplates] = useState<TemplateChoice[] | null>(null);
  const [chosen, setChosen] = useState<Recipient | null>(client ?? null);
  const [templateId, setTemplateId] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void listTemplates().then((templateList) => {
      if (!templateList.ok) return setError(recordProblem(templateList.problem, t));
      setTemplates(templateList.data.data);
      setTemplateId(templateList.data.data[0]?.id ?? '');
    });
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !chosen || !templateId) return;
    setBusy(true);
    const answer = await createOnboarding({
      client_id: chosen.id,
      template_id: templateId,
      ...(dueOn ? { due_on: dueOn } : {}),
    });
    setBusy(false);
    if (answer.ok) onCreated(answer.data.onboarding.id);
    else setError(recordProblem(answer.problem, t));
  };
  const recipientName = chosen ? chosen.name || chosen.email : null;
  return (
    <Dialog title={t('onboardings.newTitle')} onClose={onClose}>
      {templates === null ? (
        error ? (
          <ErrorMessage text={error} />
        ) : (
          <p class="loading">{t('app.loading')}</p>
        )
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorMessage text={error} />
          {templates.length === 0 ? <p class="notice">{t('onboardings.noTemplates')}</p> : null}
          {client ? (
            <dl class="facts">
              <dt>{t('onboardings.client')}</dt>
              <dd>{`${client.name} (${client.email})`}</dd>
            </dl>
          ) : (
            <ClientChoice chosen={chosen} onChoose={setChosen} />
          )}
          <Select
            label={t('onboardings.template')}
            value={templateId}
            onValue={setTemplateId}
            options={templates.map((template) => ({ value: template.id, label: template.name }))}
          />
          <DueOnField label={t('onboardings.dueOn')} value={dueOn} onValue={setDueOn} />
          <DialogActions
            action={
              recipientName ? t('onboardings.createFor', { name: recipientName }) : t('onboardings.create')
            }
            disabled={busy || !chosen || !templateId}
            onCancel={onClose}
          />
        </form>
      )}
    </Dialog>
  );
}

/** Search the team's clients and pick one (radio buttons; none picked at first). */
function ClientChoice({
  chosen,
  onChoose,
}: {
  chosen: Recipient | null;
  onChoose: (client: Recipient) => void;
}) {
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<Recipient[] | null>(null);
  const [total, setTotal] = useState({ count: 0, capped: false });
  const name = useId();
  useEffect(() => {
    // Each keystroke asks again; the latest answer wins (an older one is dropped).
    let current = true;
    void listClients({ q: query.trim(), limit: CLIENT_CHOICES }).then((answer) => {
      if (!current || !answer.ok) return;
      setMatches(answer.data.data.map(({ id, name: n, email }) => ({ id, name: n, email })));
      setTotal({ count: answer.data.total, capped: answer.data.total_capped });
    });
    return () => {
      current = false;
    };
  }, [query]);
  return (
    <fieldset class="field client-choice">
      <legend>{t('onboardings.chooseClient')}</legend>
      <Field label={t('onboardings.searchClients')} type="search" value={query} onValue={setQuery} />
      {matches === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : matches.length === 0 ? (
        <p class="notice">{t(query.trim() ? 'onboardings.noClientMatch' : 'onboardings.noClients')}</p>
      ) : (
        <ul class="plain client-choices">
          {matches.map((client) => (
            <li key={client.id} class="check">
              <input
                type="radio"
                id={`${name}-${client.id}`}
                name={name}
                checked={chosen?.id === client.id}
                onChange={() => onChoose(client)}
              />
              <label for={`${name}-${client.id}`}>
                {client.name} <span class="muted">({client.email})</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {matches && total.count > matches.length ? (
        <p class="hint">
          {t(total.capped ? 'onboardings.moreClientsCapped' : 'onboardings.moreClients', {
            shown: matches.length,
            total: total.count,
          })}
        </p>
      ) : null}
    </fieldset>
  );
}
