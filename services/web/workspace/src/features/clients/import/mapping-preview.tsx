import { t } from '../../../i18n.ts';
import { Select } from '../../../ui/index.ts';
import type { Mapping, Preview } from './api.ts';
import { rowProblemText } from './texts.ts';

const FIELDS = ['name', 'email', 'company', 'phone', 'locale'] as const;
/** Clients the preview table shows (the counts cover all). */
const SHOWN = 10;

/** The column of each detail (the member may change the guess), then what the import will do. */
export function MappingPreview({
  preview,
  onMapping,
}: {
  preview: Preview;
  onMapping: (mapping: Mapping) => void;
}) {
  const options = [
    { value: '', label: t('clientsImport.noColumn') },
    ...preview.headers.map((header, index) => ({ value: String(index), label: header || `#${index + 1}` })),
  ];
  const shown = preview.clients.slice(0, SHOWN);
  return (
    <>
      <fieldset class="field">
        <legend>{t('clientsImport.mapping')}</legend>
        <p class="hint">{t('clientsImport.mappingHint')}</p>
        {FIELDS.map((field) => (
          <Select
            key={field}
            label={t(`clientsImport.field.${field}`)}
            value={preview.mapping[field] === null ? '' : String(preview.mapping[field])}
            options={options}
            onValue={(value) =>
              onMapping({ ...preview.mapping, [field]: value === '' ? null : Number(value) })
            }
          />
        ))}
      </fieldset>
      {shown.length > 0 ? (
        <p>{t('clientsImport.previewCaption', { shown: shown.length, total: preview.clients.length })}</p>
      ) : null}
      {shown.length > 0 ? (
        <div
          class="import-table"
          role="region"
          aria-label={t('clientsImport.previewLabel')}
          tabIndex={0}
          style="overflow-x:auto"
        >
          <table class="import-preview" style="min-width:40rem;overflow-wrap:normal;word-break:normal">
            <thead>
              <tr>
                <th scope="col">{t('clientsImport.row')}</th>
                {FIELDS.map((field) => (
                  <th scope="col" key={field}>
                    {t(`clientsImport.field.${field}`)}
                  </th>
                ))}
                <th scope="col">{t('clientsImport.status')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((client) => (
                <tr key={client.row}>
                  <td>{client.row}</td>
                  <td>{client.name}</td>
                  <td>{client.email}</td>
                  <td>{client.company ?? ''}</td>
                  <td>{client.phone ?? ''}</td>
                  <td>{client.locale ?? ''}</td>
                  <td>{client.existing ? t('clientsImport.existing') : t('clientsImport.new')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {preview.problems.length > 0 ? (
        <section aria-labelledby="import-problems">
          <h3 id="import-problems">{t('clientsImport.problemsTitle', { count: preview.problems.length })}</h3>
          <ul>
            {preview.problems.map((problem) => (
              <li key={problem.row}>{rowProblemText(problem)}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.merges.length > 0 ? (
        <section aria-labelledby="import-merges">
          <h3 id="import-merges">{t('clientsImport.mergesTitle', { count: preview.merges.length })}</h3>
          <ul>
            {preview.merges.map((merge) => (
              <li key={merge.row}>{t('clientsImport.merge', merge)}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
