/**
 * Files for a field: the rules (types, size, count) shown before anything is chosen, a
 * drop zone around a real file input (reachable by Tab, named by the field's label), one
 * progress bar per file on its way, and the uploaded files with a Remove button each.
 * Files the rules refuse never leave the device; what the server refuses is said beside
 * the field. The onboarding is reloaded after each upload and removal, so the list is
 * always the server's (./use-file-uploads.ts).
 */
import { useState } from 'preact/hooks';
import type { FieldProps } from './field-props.ts';
import { FieldFrame } from './FieldFrame.tsx';
import { FileList, Refusals, UploadList } from './file-lists.tsx';
import { acceptAttribute, fileTypeNames } from './file-rules.ts';
import { describedBy, helpText, pageLocale } from './field-text.ts';
import { useFileUploads } from './use-file-uploads.ts';

export function FileUploadField(props: FieldProps) {
  const { field, problem, ids, t, formats } = props;
  const { rules, files, uploads, refusals, status, removing, input, add, remove } = useFileUploads(props);
  const [dragging, setDragging] = useState(false);
  const rulesId = `${ids.input}-rules`;
  const refusalsId = `${ids.input}-refusals`;
  const shownProblem = problem && files.length === 0 ? problem : null;
  return (
    <FieldFrame field={field} ids={ids} problem={shownProblem} t={t} formats={formats}>
      <p id={rulesId} class="field__hint files__rules">
        {t('files.rules', {
          types: fileTypeNames(rules.accept, pageLocale()),
          size: formats.fileSize(rules.max_size_bytes),
          count: rules.max_files,
        })}
      </p>
      <div
        class={dragging ? 'files__drop files__drop--over' : 'files__drop'}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void add(Array.from(event.dataTransfer?.files ?? []));
        }}
      >
        <span class="files__drop-text" aria-hidden="true">
          {t('files.drop')}
        </span>
        <span class="files__picker">
          <input
            ref={input}
            class="files__input"
            type="file"
            multiple
            name={field.id}
            accept={acceptAttribute(rules.accept)}
            onChange={(event) => {
              const chosen = Array.from(event.currentTarget.files ?? []);
              // Cleared so that choosing the same file again after removing it is a change.
              event.currentTarget.value = '';
              void add(chosen);
            }}
            id={ids.input}
            aria-describedby={describedBy(
              helpText(field) && ids.help,
              rulesId,
              refusals.length > 0 && refusalsId,
              shownProblem && ids.error,
            )}
            aria-invalid={shownProblem || refusals.length > 0 ? 'true' : undefined}
          />
          <span class="files__button" aria-hidden="true">
            {t('files.pick')}
          </span>
        </span>
      </div>
      <UploadList uploads={uploads} inputId={ids.input} t={t} />
      <Refusals id={refusalsId} refusals={refusals} />
      <FileList
        files={files}
        uploading={uploads.length > 0}
        removing={removing}
        onRemove={(file) => void remove(file)}
        t={t}
        formats={formats}
      />
      <p class="field-sr-only" aria-live="polite">
        {status}
      </p>
    </FieldFrame>
  );
}
