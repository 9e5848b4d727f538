import { useState } from 'preact/hooks';
import { problemMessage } from '../../../problems.ts';
import { t } from '../../../i18n.ts';
import { Dialog, DialogActions, ErrorMessage, Status } from '../../../ui/index.ts';
import {
  importClients,
  previewImport,
  type Imported,
  type Mapping,
  type Preview,
  type SendSummary,
} from './api.ts';
import { BulkSendForm, SendSummaryView } from './bulk-send-form.tsx';
import { MappingPreview } from './mapping-preview.tsx';

/**
 * Import clients from a CSV file: choose the file, check the columns and what each row
 * gives (bad rows named, repeated emails merged), import (all or none), then send them a
 * template in one action and read what went and what was refused.
 */
export function ImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [imported, setImported] = useState<Imported | null>(null);
  const [summary, setSummary] = useState<SendSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const look = async (text: string, mapping?: Mapping) => {
    setStatus(t('clientsImport.reading'));
    const answer = await previewImport(text, mapping);
    setStatus(null);
    if (answer.ok) {
      setPreview(answer.data);
      setError(null);
    } else setError(problemMessage(answer.problem, t));
  };
  const chosen = async (event: Event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    const text = await file.text();
    setCsv(text);
    await look(text);
  };
  const confirm = async (event: Event) => {
    event.preventDefault();
    if (busy || !preview) return;
    setBusy(true);
    const answer = await importClients(csv, preview.mapping);
    setBusy(false);
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    setImported(answer.data);
    setStatus(t('clientsImport.done', { created: answer.data.created, kept: answer.data.kept }));
    onImported();
  };

  return (
    <Dialog title={t('clientsImport.title')} onClose={onClose}>
      <Status text={status} />
      <ErrorMessage text={error} />
      {imported ? (
        summary ? (
          <>
            <SendSummaryView summary={summary} clients={imported.clients} />
            <div class="actions">
              <button type="button" class="button-primary" onClick={onClose}>
                {t('clientsImport.close')}
              </button>
            </div>
          </>
        ) : imported.clients.length > 0 ? (
          <BulkSendForm clients={imported.clients} onSent={setSummary} />
        ) : null
      ) : (
        <form onSubmit={confirm} noValidate>
          <div class="field">
            <label for="import-file">{t('clientsImport.file')}</label>
            <p class="hint" id="import-file-hint">
              {t('clientsImport.fileHint')}
            </p>
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby="import-file-hint"
              onChange={chosen}
            />
          </div>
          {preview ? (
            <>
              <MappingPreview preview={preview} onMapping={(mapping) => void look(csv, mapping)} />
              {preview.clients.length > 0 ? (
                <DialogActions
                  action={t('clientsImport.confirm', { count: preview.clients.length })}
                  disabled={busy}
                  onCancel={onClose}
                />
              ) : (
                <p>{t('clientsImport.nothing')}</p>
              )}
            </>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}
