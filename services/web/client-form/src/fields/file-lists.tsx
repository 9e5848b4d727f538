/** The lists of a file field: the uploads on their way, the refusals, the uploaded files. */
import type { PortalFile } from '../api.ts';
import type { Formats, Translate } from '../i18n.ts';
import type { Notice, Upload } from './use-file-uploads.ts';

export function UploadList({ uploads, inputId, t }: { uploads: Upload[]; inputId: string; t: Translate }) {
  if (uploads.length === 0) return null;
  return (
    <ul class="files__uploads">
      {uploads.map((upload) => (
        <li key={upload.key} class="files__upload">
          <span id={`${inputId}-upload-${upload.key}`} class="files__upload-text">
            {t('files.uploading', { name: upload.name, percent: upload.progress })}
          </span>
          <progress
            class="files__progress"
            max={1}
            value={upload.progress}
            aria-labelledby={`${inputId}-upload-${upload.key}`}
          />
        </li>
      ))}
    </ul>
  );
}

export function Refusals({ id, refusals }: { id: string; refusals: Notice[] }) {
  return (
    <div id={id} class="files__refusals" role="alert">
      {refusals.map((notice) => (
        <p key={notice.key} class="field__error">
          {notice.text}
        </p>
      ))}
    </div>
  );
}

export function FileList(props: {
  files: PortalFile[];
  uploading: boolean;
  removing: string | null;
  onRemove(file: PortalFile): void;
  t: Translate;
  formats: Formats;
}) {
  const { files, removing, t, formats } = props;
  if (files.length === 0) {
    return props.uploading ? null : <p class="field__hint files__none">{t('files.none')}</p>;
  }
  return (
    <ul class="files__list">
      {files.map((file) => (
        <li key={file.id} class="files__item">
          <span class="files__name">{file.file_name}</span>
          <span class="files__size">{formats.fileSize(file.size_bytes)}</span>
          <button
            type="button"
            class="button secondary files__remove"
            disabled={removing === file.id}
            onClick={() => props.onRemove(file)}
          >
            {t('files.remove', { name: file.file_name })}
          </button>
        </li>
      ))}
    </ul>
  );
}
