import { useEffect, useState } from 'preact/hooks';
import { eraseClient, getClient } from './api.ts';
import { formatDate } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from './record-problems.ts';
import type { ClientDetails } from './records.ts';
import { Dialog, DialogActions, ErrorMessage, Field, Link, ScreenHeading, Status } from '../../ui/index.ts';
import { ClientHub } from './hub/client-hub.tsx';
import { EditDetailsDialog } from './hub/edit-details-dialog.tsx';
import { NewOnboardingDialog } from '../onboardings/new-onboarding-dialog.tsx';

/**
 * One client as a hub (decision 0090): New onboarding for them (the client given and
 * fixed), their onboardings with status and answers waiting for review, files, payments
 * and activity; Edit details in a dialog, and Erase (asked twice) at the end.
 */
export function ClientScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  const [client, setClient] = useState<ClientDetails | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [erasing, setErasing] = useState<'ask' | 'confirm' | null>(null);
  const [editing, setEditing] = useState(false);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void getClient(id).then((answer) => {
      if (answer.ok) {
        setClient(answer.data.client);
      } else if (answer.problem.status === 404 || answer.problem.status === 400) setClient(null);
      else setError(recordProblem(answer.problem, t));
    });
  }, [id]);

  const erase = async () => {
    if (!client) return;
    const answer = await eraseClient(client.id);
    if (!answer.ok) {
      setErasing(null);
      return setError(recordProblem(answer.problem, t));
    }
    navigate('/workspace/clients');
  };

  return (
    <>
      <p>
        <Link href="/workspace/clients" navigate={navigate}>
          {t('clients.back')}
        </Link>
      </p>
      <ScreenHeading>{client ? client.name : t('title.client')}</ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      {client === undefined ? (
        <p class="loading">{t('app.loading')}</p>
      ) : client === null ? (
        <p>{t('clients.notFound')}</p>
      ) : (
        <>
          <p>
            {client.email} · {t('clients.since', { date: formatDate(client.created_at) })}
          </p>
          <div class="actions">
            <button type="button" class="button-primary" onClick={() => setCreating(true)}>
              {t('clients.hub.newOnboarding')}
            </button>
            <button type="button" class="button-secondary" onClick={() => setEditing(true)}>
              {t('clients.hub.editDetails')}
            </button>
          </div>
          <ClientHub clientId={client.id} version={0} navigate={navigate} />
          {editing ? (
            <EditDetailsDialog
              client={client}
              onClose={() => setEditing(false)}
              onSaved={(saved) => {
                setClient(saved);
                setEditing(false);
                setError(null);
                setStatus(t('clients.saved'));
              }}
            />
          ) : null}
          {creating ? (
            <NewOnboardingDialog
              client={{ id: client.id, name: client.name, email: client.email }}
              onClose={() => setCreating(false)}
              onCreated={(onboardingId) => navigate(`/workspace/onboardings/${onboardingId}`)}
            />
          ) : null}
          <section class="section" aria-labelledby="client-erase">
            <h2 id="client-erase">{t('clients.erase')}</h2>
            <p>{t('clients.eraseExplain', { name: client.name })}</p>
            <button type="button" class="button-danger" onClick={() => setErasing('ask')}>
              {t('clients.erase')}
            </button>
          </section>
          {erasing === 'ask' ? (
            <Dialog title={t('clients.eraseTitle', { name: client.name })} onClose={() => setErasing(null)}>
              <p>{t('clients.eraseExplain', { name: client.name })}</p>
              <DialogActions
                action={t('clients.eraseContinue')}
                danger
                onAction={() => setErasing('confirm')}
                onCancel={() => setErasing(null)}
              />
            </Dialog>
          ) : null}
          {erasing === 'confirm' ? (
            <ConfirmEraseDialog client={client} onClose={() => setErasing(null)} onConfirmed={erase} />
          ) : null}
        </>
      )}
    </>
  );
}

/** The second question: type the client's email address before erasing. */
function ConfirmEraseDialog({
  client,
  onClose,
  onConfirmed,
}: {
  client: ClientDetails;
  onClose: () => void;
  onConfirmed: () => Promise<void>;
}) {
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (typed.trim().toLowerCase() !== client.email.toLowerCase()) {
      return setMismatch(t('clients.eraseMismatch', { email: client.email }));
    }
    setBusy(true);
    await onConfirmed();
    setBusy(false);
  };
  return (
    <Dialog title={t('clients.eraseConfirmTitle', { name: client.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('clients.eraseTypeEmail', { email: client.email })}
          type="email"
          autoComplete="off"
          value={typed}
          onValue={setTyped}
          error={mismatch}
          autoFocus
        />
        <DialogActions action={t('clients.eraseNow')} danger disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
