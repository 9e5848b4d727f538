/**
 * Files for a field: the rules (types, size, count) shown before anything is chosen, a
 * drop zone around a real file input (reachable by Tab, named by the field's label), one
 * progress bar per file on its way, and the uploaded files with a Remove button each.
 * Files the rules refuse never leave the device; what the server refuses is said beside
 * the field. The onboarding is reloaded after each upload and removal, so the list is
 * always the server's.
 */
import { useRef, useState } from 'preact/hooks';
import { fileConfig } from '../../../../templates/contract/field-catalogue.ts';
import type { PortalFile } from '../api.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame } from './FieldFrame.tsx';
import { acceptAttribute, checkFiles, fileTypeNames, refusalOf, type Refusal } from './file-rules.ts';
import { describedBy, helpText, pageLocale } from './field-text.ts';
import { problemText } from '../problems.ts';

interface Upload {
  key: number;
  name: string;
  progress: number;
}

interface Notice {
  key: number;
  text: string;
}

export function FileUploadField(props: FieldProps) {
  const { field, problem, ids, portal, onboarding, refresh, t, formats } = props;
  const rules = fileConfig(field);
  const files = onboarding.files.filter((file) => file.field_id === field.id);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [refusals, setRefusals] = useState<Notice[]>([]);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const counter = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  const refusalText = (name: string, refusal: Refusal) => {
    const reason =
      'problem' in refusal
        ? problemText(refusal.problem, t, formats)
        : refusal.message === 'errors.busy'
          ? t(refusal.message, { seconds: refusal.seconds })
          : t(refusal.message);
    return t('files.failed', { name, reason });
  };
  const refuse = (texts: string[]) =>
    setRefusals((list) => [...list, ...texts.map((text) => ({ key: (counter.current += 1), text }))]);

  const add = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    setRefusals([]);
    const check = checkFiles(chosen, rules, files.length + uploads.length);
    refuse(check.refused.map(({ file, problem: found }) => refusalText(file.name, { problem: found })));
    for (const file of check.accepted) {
      const key = (counter.current += 1);
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        await portal.uploadFile(field.id, file, (progress) =>
          setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, progress } : upload))),
        );
        // The row stays until the reloaded list shows the file, so the file never blinks out.
        await refresh().catch(() => undefined);
        setStatus(t('files.uploaded', { name: file.name }));
      } catch (error) {
        refuse([refusalText(file.name, refusalOf(error, rules))]);
      } finally {
        setUploads((list) => list.filter((upload) => upload.key !== key));
      }
    }
  };

  const remove = async (file: PortalFile) => {
    setRemoving(file.id);
    setRefusals([]);
    try {
      await portal.removeFile(file.id);
      setStatus(t('files.removed', { name: file.file_name }));
      await refresh().catch(() => undefined);
      input.current?.focus();
    } catch (error) {
      refuse([refusalText(file.file_name, refusalOf(error, rules))]);
    } finally {
      setRemoving(null);
    }
  };

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
      {uploads.length > 0 ? (
        <ul class="files__uploads">
          {uploads.map((upload) => (
            <li key={upload.key} class="files__upload">
              <span id={`${ids.input}-upload-${upload.key}`} class="files__upload-text">
                {t('files.uploading', { name: upload.name, percent: upload.progress })}
              </span>
              <progress
                class="files__progress"
                max={1}
                value={upload.progress}
                aria-labelledby={`${ids.input}-upload-${upload.key}`}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div id={refusalsId} class="files__refusals" role="alert">
        {refusals.map((notice) => (
          <p key={notice.key} class="field__error">
            {notice.text}
          </p>
        ))}
      </div>
      {files.length > 0 ? (
        <ul class="files__list">
          {files.map((file) => (
            <li key={file.id} class="files__item">
              <span class="files__name">{file.file_name}</span>
              <span class="files__size">{formats.fileSize(file.size_bytes)}</span>
              <button
                type="button"
                class="button secondary files__remove"
                disabled={removing === file.id}
                onClick={() => void remove(file)}
              >
                {t('files.remove', { name: file.file_name })}
              </button>
            </li>
          ))}
        </ul>
      ) : uploads.length === 0 ? (
        <p class="field__hint files__none">{t('files.none')}</p>
      ) : null}
      <p class="field-sr-only" aria-live="polite">
        {status}
      </p>
    </FieldFrame>
  );
}
