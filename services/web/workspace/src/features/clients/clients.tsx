import { useCallback, useEffect, useState } from 'preact/hooks';
import { addClient, listClients } from './api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from './record-problems.ts';
import { ImportClientsAction } from './import/import-button.tsx';
import type { ApiAnswer } from '../../api.ts';
import type { ClientDetails, ClientView } from './records.ts';
import {
  Dialog,
  DialogActions,
  ErrorMessage,
  Field,
  ListAction,
  PagedRows,
  ScreenHeading,
  Status,
  useFieldCheck,
} from '../../ui/index.ts';
import { fieldErrors } from '../../validation.ts';
import {
  ClientSettingsFields,
  settingsBody,
  settingsValues,
  type SettingsValues,
} from './client-settings.tsx';

const PAGE = 20;

/** Clients: search by name, email or company, page through them, add one. */
export function ClientsScreen({ navigate }: { navigate: (path: string) => void }) {
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<ApiAnswer<'/workspace/v1/clients', 'get'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const load = useCallback(async (q: string, from: number) => {
    const answer = await listClients({ limit: PAGE, offset: from, q: q.trim() });
    if (answer.ok) {
      setPage(answer.data);
      setError(null);
    } else setError(recordProblem(answer.problem, t));
  }, []);
  useEffect(() => {
    void load(searched, offset);
  }, [load, searched, offset]);

  return (
    <>
      <ScreenHeading>{t('clients.title')}</ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      <ListAction label={t('clients.add')} onClick={() => setAdding(true)} />
      <ImportClientsAction onImported={() => void load(searched, offset)} />
      <form
        role="search"
        class="search-form"
        onSubmit={(event) => {
          event.preventDefault();
          setOffset(0);
          setSearched(query);
        }}
      >
        <Field
          label={t('clients.search')}
          hint={t('clients.searchHint')}
          type="search"
          value={query}
          onValue={setQuery}
        />
        <button type="submit" class="button-secondary">
          {t('clients.searchButton')}
        </button>
      </form>
      <PagedRows
        page={page}
        offset={offset}
        size={PAGE}
        onOffset={setOffset}
        none={searched ? t('clients.noneFound', { query: searched }) : t('clients.none')}
        count={page ? t('clients.count', { total: page.total }) : ''}
        href={(client) => `/workspace/clients/${client.id}`}
        title={(client) => client.name}
        facts={(client) => (
          <dl class="facts">
            <dt>{t('field.email')}</dt>
            <dd>{client.email}</dd>
            {client.company ? (
              <>
                <dt>{t('clients.companyLabel')}</dt>
                <dd>{client.company}</dd>
              </>
            ) : null}
          </dl>
        )}
        navigate={navigate}
      />
      {adding ? (
        <AddClientDialog
          onClose={() => setAdding(false)}
          onAdded={(client) => {
            setAdding(false);
            setStatus(t('clients.created', { name: client.name }));
            void load(searched, offset);
          }}
        />
      ) : null}
    </>
  );
}

/**
 * The client's details as a form: add (empty) or edit (filled), with the client's language,
 * date format and time zone (`adding`: the time zone may be left to the team's).
 */
export function ClientFields({
  values,
  onValues,
  errors,
  adding = false,
}: {
  values: ClientValues;
  onValues: (values: ClientValues) => void;
  errors: Record<string, string>;
  adding?: boolean;
}) {
  const set = (field: keyof ClientValues) => (value: string) => onValues({ ...values, [field]: value });
  return (
    <>
      <Field
        label={t('field.name')}
        value={values.name}
        onValue={set('name')}
        error={errors['name']}
        required
      />
      <Field
        label={t('field.email')}
        type="email"
        value={values.email}
        onValue={set('email')}
        error={errors['email']}
        required
      />
      <Field label={t('clients.company')} value={values.company} onValue={set('company')} />
      <Field label={t('clients.phone')} type="tel" value={values.phone} onValue={set('phone')} />
      <Field label={t('clients.notes')} value={values.notes} onValue={set('notes')} />
      <ClientSettingsFields
        values={values}
        onValues={(next) => onValues({ ...values, ...next })}
        adding={adding}
      />
    </>
  );
}

export interface ClientValues extends SettingsValues {
  name: string;
  email: string;
  company: string;
  phone: string;
  notes: string;
}

export const clientValues = (client?: ClientView & Partial<ClientDetails>): ClientValues => ({
  name: client?.name ?? '',
  email: client?.email ?? '',
  company: client?.company ?? '',
  phone: client?.phone ?? '',
  notes: client?.notes ?? '',
  ...settingsValues(client),
});

/** The API body of the form's values: empty optional fields are null. */
export const clientBody = (values: ClientValues) => ({
  name: values.name.trim(),
  email: values.email.trim(),
  company: values.company.trim() || null,
  phone: values.phone.trim() || null,
  notes: values.notes.trim() || null,
  ...settingsBody(values),
});

export const checkClient = (values: ClientValues) =>
  fieldErrors(
    { name: { kind: 'required', value: values.name }, email: { kind: 'email', value: values.email } },
    t,
  );

function AddClientDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (client: ClientView) => void;
}) {
  const [values, setValues] = useState(clientValues());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldCheck();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !fields.check(checkClient(values))) return;
    setBusy(true);
    const answer = await addClient(clientBody(values));
    setBusy(false);
    if (answer.ok) onAdded(answer.data.client);
    else setError(recordProblem(answer.problem, t));
  };
  return (
    <Dialog title={t('clients.addTitle')} onClose={onClose}>
      <form ref={fields.form} onSubmit={submit} noValidate>
        <ErrorMessage text={error} />
        <ClientFields values={values} onValues={setValues} errors={fields.errors} adding />
        <DialogActions action={t('clients.create')} disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
