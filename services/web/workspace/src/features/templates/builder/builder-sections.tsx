import { t } from '../../../i18n.ts';
import { sampleTextFields, type BuilderTemplate } from '../template-model.ts';
import { Dialog, ErrorMessage, Field, Select, Status } from '../../../ui/index.ts';
import { Problems, TextArea } from './builder-inputs.tsx';
import { typeName } from './builder-moves.ts';
import { LOCALE_NAMES, TRANSLATION_LOCALES, TranslationInputs } from './builder-translations.tsx';
import { PaymentNoticeText } from './payment-notice.tsx';
import { LivePreview } from './builder-preview.tsx';
import type { BuilderState } from './use-builder-template.ts';

/** Why sends are blocked (sample agreement text left in), with a link to each field to fix. */
export function SendBlockers({ template }: { template: BuilderTemplate }) {
  const blockers = sampleTextFields(template);
  if (blockers.length === 0) return null;
  return (
    <div class="warning builder-blockers" role="note">
      <p>
        <strong>{t('builder.sendsBlocked')}</strong> {t('builder.sendsBlockedWhy')}
      </p>
      <ul>
        {blockers.map((field) => (
          <li key={field.id}>
            <a href={`#f-${field.id}-agreement_text`}>
              {t('builder.replaceIn', { name: field.label || typeName(field.type) })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The template's name, description, vertical, and the language its texts are translated into. */
export function TemplateDetails({
  template,
  state,
  locale,
  onLocale,
  open,
  onToggle,
}: {
  template: BuilderTemplate;
  state: BuilderState;
  locale: string;
  onLocale: (locale: string) => void;
  open: boolean;
  onToggle: () => void;
}) {
  const { update, checked, problems } = state;
  const shown = checked ? problems?.template : undefined;
  return (
    <section class="section builder-card" aria-labelledby="details-heading">
      <h2 id="details-heading" class="builder-card-title">
        <button
          type="button"
          class="builder-toggle"
          id="toggle-details"
          aria-expanded={open}
          aria-controls={open ? 'details-body' : undefined}
          onClick={onToggle}
        >
          {t('builder.details')}
        </button>
      </h2>
      <Problems id="problems-template" messages={shown} />
      {open || shown?.length ? (
        <div id="details-body">
          <Field
            id="template-name"
            label={t('builder.name')}
            value={template.name}
            maxLength={200}
            onValue={(value) => update((draft) => (draft.name = value))}
          />
          <TextArea
            id="template-description"
            label={t('builder.description')}
            value={template.description ?? ''}
            onValue={(value) => update((draft) => (draft.description = value || null))}
          />
          <Field
            id="template-vertical"
            label={t('builder.vertical')}
            value={template.vertical ?? ''}
            hint={t('builder.verticalHint')}
            maxLength={200}
            onValue={(value) => update((draft) => (draft.vertical = value || null))}
          />
          <Select
            id="translation-locale"
            label={t('builder.translateInto')}
            value={locale}
            onValue={onLocale}
            options={[
              { value: '', label: t('builder.noTranslation') },
              ...TRANSLATION_LOCALES.map((code) => ({ value: code, label: LOCALE_NAMES[code] ?? code })),
            ]}
          />
          <p class="hint">{t('builder.translateHint')}</p>
          {locale ? (
            <TranslationInputs
              idPrefix="template"
              locale={locale}
              translations={template.translations}
              keys={[
                { key: 'name', label: t('builder.name'), original: template.name },
                ...(template.description
                  ? [{ key: 'description', label: t('builder.description'), original: template.description }]
                  : []),
              ]}
              onChange={(translations) => update((draft) => (draft.translations = translations))}
            />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The preview beside the builder: the template as edited now (LivePreview), and below it the
 * real client form over the saved version in a new tab, in a chosen language. On a phone it
 * is shown by its own toggle, above the builder.
 */
export function PreviewPanel({
  id,
  template,
  dirty,
  locale,
  onLocale,
  shownOnPhone,
}: {
  id: string;
  template: BuilderTemplate;
  dirty: boolean;
  locale: string;
  onLocale: (locale: string) => void;
  shownOnPhone: boolean;
}) {
  const href = `/f/preview?template=${encodeURIComponent(id)}&locale=${encodeURIComponent(locale)}`;
  return (
    <aside
      id="builder-preview"
      class={`builder-preview${shownOnPhone ? ' builder-preview-shown' : ''}`}
      aria-labelledby="preview-heading"
      tabIndex={0}
    >
      <h2 id="preview-heading">{t('builder.preview')}</h2>
      <p class="hint">{t('builder.livePreviewIntro')}</p>
      <LivePreview template={template} />
      <div class="builder-preview-real">
        <p class="hint">{t('builder.previewIntro')}</p>
        {dirty ? <p class="notice">{t('builder.previewSaveFirst')}</p> : null}
        <Select
          id="preview-locale"
          label={t('builder.previewLanguage')}
          value={locale}
          onValue={onLocale}
          options={['en-US', ...TRANSLATION_LOCALES].map((code) => ({
            value: code,
            label: LOCALE_NAMES[code] ?? code,
          }))}
        />
        <a class="button-secondary builder-preview-link" href={href} target="_blank" rel="noopener">
          {t('builder.openPreview')}
        </a>
      </div>
    </aside>
  );
}

/** Where the save's problems are: each one a link that opens its card and focuses its input. */
export interface ProblemLink {
  key: string;
  name: string;
  text: string;
  go: () => void;
}

/** The problems of a refused save, at the top: the count in words, then each one linked to its place. */
export function ProblemSummary({ links }: { links: ProblemLink[] }) {
  if (links.length === 0) return null;
  return (
    <div class="error-summary builder-summary" role="alert" aria-labelledby="builder-summary-heading">
      <h2 id="builder-summary-heading">{t('builder.fixProblems', { count: links.length })}</h2>
      <ul>
        {links.map((link, index) => (
          <li key={`${link.key}-${index}`}>
            <a
              href={`#${link.key}`}
              onClick={(event) => {
                event.preventDefault();
                link.go();
              }}
            >
              {link.name}: {link.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The save bar, stuck to the bottom of the screen: whether everything is saved, what the save
 * said (and beside it whether the template's payments can be collected), Save, and Reload
 * after a conflict.
 */
export function SaveBar({ state, navigate }: { state: BuilderState; navigate: (path: string) => void }) {
  const { status, notice, error, dirty, busy, conflict, save, reload } = state;
  return (
    <div class="builder-savebar">
      <Status text={status} />
      <PaymentNoticeText notice={notice} navigate={navigate} />
      <ErrorMessage text={error} />
      <div class="actions">
        <p class={`builder-save-state${dirty ? ' builder-unsaved' : ''}`} role="status">
          {dirty ? t('builder.unsavedShort') : t('builder.allSaved')}
        </p>
        <button type="button" class="button-primary" disabled={busy} onClick={() => void save()}>
          {t('builder.save')}
        </button>
        {conflict ? (
          <button type="button" class="button-secondary" onClick={reload}>
            {t('builder.reload')}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** Leaving with unsaved changes asks first. */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  return (
    <Dialog title={t('builder.leaveTitle')} onClose={onStay}>
      <p>{t('builder.leaveIntro')}</p>
      <div class="actions">
        <button type="button" class="button-secondary" onClick={onStay}>
          {t('builder.stay')}
        </button>
        <button type="button" class="button-danger" onClick={onLeave}>
          {t('builder.leave')}
        </button>
      </div>
    </Dialog>
  );
}
