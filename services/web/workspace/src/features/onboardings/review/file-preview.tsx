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
 * <img> with its name as the alt text, a PDF as a link that opens it in a new tab, any file
 * with its download link. Bytes come from the authenticated download route on the same
 * origin (img-src 'self'; no <object> or <iframe>, which the CSP's object-src 'none' forbids).
 */
export function FilePreview({ href, file }: { href: string; file: PreviewFile }) {
  const name = file.file_name ?? 'file';
  const type = file.content_type ?? '';
  return (
    <figure class="file-preview">
      {INLINE_IMAGES.has(type) ? (
        <a href={href} target="_blank" rel="noopener">
          <img src={href} alt={t('review.previewAlt', { name })} loading="lazy" class="file-preview-image" />
        </a>
      ) : null}
      <figcaption>
        {type === 'application/pdf' ? (
          <>
            <a href={href} target="_blank" rel="noopener">
              {t('review.openPdf', { name })}
            </a>{' '}
            ·{' '}
          </>
        ) : null}
        <a href={href} download>
          {t('review.download', { name })}
        </a>
      </figcaption>
    </figure>
  );
}
