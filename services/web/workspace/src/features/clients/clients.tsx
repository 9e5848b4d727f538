import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { addClient, listClients } from './api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from './record-problems.ts';
import { ImportClientsAction } from './import/import-button.tsx';
import { ClientsTable } from './clients-table.tsx';
import type { ApiAnswer } from '../../api.ts';
import type { ClientDetails, ClientView } from './records.ts';
import {
  Dialog,
  DialogActions,
  ErrorMessage,
  Field,
  ListAction,
  Pager,
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
/** How long the search waits after the last key before it asks. */
const TYPING_MS = 300;

/** The search in the address (?q=), so a link or the back button brings the same list. */
const queryOfAddress = () => new URLSearchParams(location.search).get('q') ?? '';

/**
 * Clients: a search that applies as the member types and lives in the address, a page of
 * clients with each one's latest onboarding, add one or import many.
 */
export function ClientsScreen({ navigate }: { navigate: (path: string) => void }) {
  const [query, setQuery] = useState(queryOfAddress);
  const [searched, setSearched] = useState(queryOfAddress);
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<ApiAnswer<'/workspace/v1/clients', 'get'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();

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
  useEffect(() => {
    const back = () => {
      setQuery(queryOfAddress());
      setSearched(queryOfAddress());
      setOffset(0);
    };
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);
  // Typing replaces the address's entry rather than pushing one per pause.
  const typed = (value: string) => {
    setQuery(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const q = value.trim();
      history.replaceState(null, '', `${location.pathname}${q ? `?${new URLSearchParams({ q })}` : ''}`);
      setOffset(0);
      setSearched(q);
    }, TYPING_MS);
  };

  return (
    <>
      <ScreenHeading>{t('clients.title')}</ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      <ListAction label={t('clients.add')} onClick={() => setAdding(true)} />
      <ImportClientsAction onImported={() => void load(searched, offset)} />
      <form role="search" class="search-form" onSubmit={(event) => event.preventDefault()}>
        <Field
          label={t('clients.search')}
          hint={t('clients.searchHint')}
          type="search"
          value={query}
          onValue={typed}
        />
      </form>
      {page === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : page.data.length === 0 ? (
        <p role="status">{searched ? t('clients.noneFound', { query: searched }) : t('clients.none')}</p>
      ) : (
        <>
          <p role="status">
            {t(page.total_capped ? 'clients.countMore' : 'clients.count', { total: page.total })}
          </p>
          <ClientsTable rows={page.data} navigate={navigate} />
          <Pager
            offset={offset}
            size={PAGE}
            total={page.total}
            capped={page.total_capped}
            shown={page.data.length}
            onOffset={setOffset}
          />
        </>
      )}
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
