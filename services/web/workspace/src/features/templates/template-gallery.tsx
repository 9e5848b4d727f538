import { useEffect, useState } from 'preact/hooks';
import { copyGalleryTemplate, listGallery } from './api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, ErrorMessage, useAction } from '../../ui/index.ts';

type GalleryItem = NonNullable<
  Awaited<ReturnType<typeof listGallery>> & { ok: true }
>['data']['data'][number];

/**
 * The gallery: shared starting templates, copied into the team to be edited. The
 * gallery_template_copy_required rule is said plainly: a gallery template whose signature
 * field still holds sample text cannot be sent as it is; the copy is edited and its text
 * replaced first.
 */
export function GalleryDialog({
  onClose,
  onCopied,
}: {
  onClose: () => void;
  onCopied: (id: string) => void;
}) {
  const [items, setItems] = useState<GalleryItem[] | null>(null);
  const { busy, error, setError, run } = useAction();
  useEffect(() => {
    void listGallery().then((answer) => {
      if (answer.ok) setItems(answer.data.data);
      else setError(problemMessage(answer.problem, t));
    });
  }, []);
  const copy = async (item: GalleryItem) => {
    if (busy) return;
    const answer = await run(() => copyGalleryTemplate(item.id));
    if (answer === undefined) return;
    if (answer.ok) onCopied(answer.data.template.id);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <Dialog title={t('gallery.title')} onClose={onClose}>
      <p>{t('gallery.intro')}</p>
      <p class="notice">{t('gallery.copyRule')}</p>
      <ErrorMessage text={error} />
      {items === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : items.length === 0 ? (
        <p>{t('gallery.none')}</p>
      ) : (
        <ul class="rows">
          {items.map((item) => (
            <li key={item.id} class="row">
              <h3 class="row-title" id={`gallery-${item.id}`}>
                {item.name}
              </h3>
              {item.description ? <p>{item.description}</p> : null}
              <p class="hint">
                {t('gallery.size', { steps: item.step_count, fields: item.field_count })}
                {item.vertical ? ` · ${item.vertical}` : ''}
              </p>
              {item.sample_agreement_text ? <p class="warning">{t('gallery.hasSampleText')}</p> : null}
              <button
                type="button"
                class="button-primary"
                disabled={busy}
                aria-describedby={`gallery-${item.id}`}
                onClick={() => void copy(item)}
              >
                {t('gallery.copy')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
