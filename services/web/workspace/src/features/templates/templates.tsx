import { useCallback, useEffect, useState } from 'preact/hooks';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ConfirmDialog, Dialog, ErrorMessage, Field, Link, ScreenHeading, Status } from '../../ui/index.ts';
import type { components } from '../../../../shared/api/openapi.d.ts';
import { createTemplate, deleteTemplate, duplicateTemplate, listTemplates } from './api.ts';
import { GalleryDialog } from './template-gallery.tsx';
import './builder/template-builder.css';

type TemplateItem = components['schemas']['TemplateListItem'];

type Open = { kind: 'new' } | { kind: 'gallery' } | { kind: 'delete'; template: TemplateItem } | null;

/** The team's templates: open one in the builder, create, duplicate, delete, start from the gallery. */
export function TemplatesScreen({ navigate }: { navigate: (path: string) => void }) {
  const [templates, setTemplates] = useState<TemplateItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);

  const load = useCallback(async () => {
    const answer = await listTemplates();
    if (answer.ok) setTemplates(answer.data.data);
    setError(answer.ok ? null : problemMessage(answer.problem, t));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const duplicate = async (template: TemplateItem) => {
    setError(null);
    const answer = await duplicateTemplate(template.id);
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    setStatus(t('templates.duplicated', { name: answer.data.template.name }));
    await load();
  };

  return (
    <>
      <ScreenHeading>{t('title.templates')}</ScreenHeading>
      <p>{t('templates.intro')}</p>
      <Status text={status} />
      <ErrorMessage text={error} />
      <div class="actions">
        <button type="button" class="button-primary" onClick={() => setOpen({ kind: 'new' })}>
          {t('templates.new')}
        </button>
        <button type="button" class="button-secondary" onClick={() => setOpen({ kind: 'gallery' })}>
          {t('templates.fromGallery')}
        </button>
      </div>
      <h2 id="templates-heading" class="section-title" tabIndex={-1}>
        {t('templates.yours')}
      </h2>
      {templates === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : templates.length === 0 ? (
        <p>{t('templates.none')}</p>
      ) : (
        <ul class="rows" aria-labelledby="templates-heading">
          {templates.map((template) => (
            <TemplateRow
              key={template.id}
              template={template}
              navigate={navigate}
              onDuplicate={() => void duplicate(template)}
              onDelete={() => setOpen({ kind: 'delete', template })}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'new' ? (
        <NewTemplateDialog
          onClose={() => setOpen(null)}
          onCreated={(id) => navigate(`/workspace/templates/${id}`)}
        />
      ) : null}
      {open?.kind === 'gallery' ? (
        <GalleryDialog
          onClose={() => setOpen(null)}
          onCopied={(id) => navigate(`/workspace/templates/${id}`)}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <ConfirmDialog
          title={t('templates.deleteTitle', { name: open.template.name })}
          intro={t('templates.deleteIntro')}
          action={t('templates.delete')}
          danger
          act={() => deleteTemplate(open.template.id)}
          onDone={() => {
            setOpen(null);
            setStatus(t('templates.deleted', { name: open.template.name }));
            void load().then(() => document.getElementById('templates-heading')?.focus());
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}

/** One template: its name (opens the builder), vertical, creation date, Duplicate and Delete. */
function TemplateRow({
  template,
  navigate,
  onDuplicate,
  onDelete,
}: {
  template: TemplateItem;
  navigate: (path: string) => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  return (
    <li class="row">
      <h3 class="row-title">
        <Link href={`/workspace/templates/${template.id}`} navigate={navigate}>
          {template.name}
        </Link>
      </h3>
      <dl class="facts">
        {template.vertical ? (
          <>
            <dt>{t('templates.vertical')}</dt>
            <dd>{template.vertical}</dd>
          </>
        ) : null}
        <dt>{t('templates.created')}</dt>
        <dd>{formatDateTime(template.created_at)}</dd>
      </dl>
      <div class="actions">
        <button
          type="button"
          class="button-secondary"
          aria-describedby={`template-${template.id}`}
          onClick={onDuplicate}
        >
          {t('templates.duplicate')}
        </button>
        <button
          type="button"
          class="button-danger"
          aria-describedby={`template-${template.id}`}
          onClick={onDelete}
        >
          {t('templates.delete')}
        </button>
        <span id={`template-${template.id}`} class="visually-hidden">
          {template.name}
        </span>
      </div>
    </li>
  );
}

function NewTemplateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (name.trim() === '') return setError(t('builder.nameRequired'));
    setBusy(true);
    const answer = await createTemplate(name.trim(), t('builder.firstStep'));
    setBusy(false);
    if (answer.ok) onCreated(answer.data.template.id);
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <Dialog title={t('templates.new')} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('builder.name')}
          value={name}
          onValue={setName}
          error={error}
          autoFocus
          maxLength={200}
        />
        <div class="actions">
          <button type="submit" class="button-primary" disabled={busy}>
            {t('templates.create')}
          </button>
          <button type="button" class="button-secondary" onClick={onClose}>
            {t('builder.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
