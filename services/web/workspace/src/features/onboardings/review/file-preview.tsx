import { t } from '../../../i18n.ts';

/** A file of a file answer as the review shows it (the answer's value). */
export interface PreviewFile {
  file_id: string;
  file_name: string | null;
  content_type?: string;
}

/** Images the browser shows inline (the content type was read from the bytes at upload). */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * A file answer previewed where the team reviews it (decision 0089): an image inline as an
 * <img> with its name as the alt text, from the authenticated download route on the same
 * origin (img-src 'self'); every file, a PDF too, with its download link. The route answers
 * as an attachment under a sandboxing CSP, so a PDF is not shown in place (Chrome's viewer
 * refuses a sandboxed document) and no <object> or <iframe> is used (object-src 'none').
 */
export function FilePreview({ href, file }: { href: string; file: PreviewFile }) {
  const name = file.file_name ?? 'file';
  return (
    <figure class="file-preview">
      {INLINE_IMAGES.has(file.content_type ?? '') ? (
        <a href={href} download>
          <img src={href} alt={t('review.previewAlt', { name })} loading="lazy" class="file-preview-image" />
        </a>
      ) : null}
      <figcaption>
        <a href={href} download>
          {t('review.download', { name })}
        </a>
      </figcaption>
    </figure>
  );
}
