import { useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { ImportDialog } from './import-dialog.tsx';

/** The Clients screen's "Import clients" action and its dialog; `onImported` reloads the list. */
export function ImportClientsAction({ onImported }: { onImported?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="button-secondary" onClick={() => setOpen(true)}>
        {t('clientsImport.open')}
      </button>
      {open ? <ImportDialog onClose={() => setOpen(false)} onImported={() => onImported?.()} /> : null}
    </>
  );
}
