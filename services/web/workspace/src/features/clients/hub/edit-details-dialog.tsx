import { useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { Dialog, DialogActions, ErrorMessage, useFieldCheck } from '../../../ui/index.ts';
import { updateClient } from '../api.ts';
import { checkClient, clientBody, ClientFields, clientValues } from '../clients.tsx';
import { recordProblem } from '../record-problems.ts';
import type { ClientDetails } from '../records.ts';

/** Edit details: the client's form in a dialog, the secondary place of the client's page. */
export function EditDetailsDialog({
  client,
  onClose,
  onSaved,
}: {
  client: ClientDetails;
  onClose: () => void;
  onSaved: (client: ClientDetails) => void;
}) {
  const [values, setValues] = useState(() => clientValues(client));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldCheck();
  const save = async (event: Event) => {
    event.preventDefault();
    if (busy || !fields.check(checkClient(values))) return;
    setBusy(true);
    const answer = await updateClient(client.id, clientBody(values));
    setBusy(false);
    if (!answer.ok) return setError(recordProblem(answer.problem, t));
    onSaved(answer.data.client);
  };
  return (
    <Dialog title={t('clients.hub.editTitle', { name: client.name })} onClose={onClose}>
      <form ref={fields.form} onSubmit={save} noValidate>
        <ErrorMessage text={error} />
        <ClientFields values={values} onValues={setValues} errors={fields.errors} />
        <DialogActions action={t('clients.save')} disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
