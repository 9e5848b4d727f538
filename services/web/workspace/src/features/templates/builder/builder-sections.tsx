import { t } from '../../../i18n.ts';
import { sampleTextFields, type BuilderTemplate } from '../template-model.ts';
import { Dialog, ErrorMessage, Field, Select, Status } from '../../../ui/index.ts';
import { Problems, TextArea } from './builder-inputs.tsx';
import { typeName } from './builder-moves.ts';
import { LOCALE_NAMES, TRANSLATION_LOCALES, TranslationInputs } from './builder-translations.tsx';
import { PaymentNoticeText } from './payment-notice.tsx';
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
}: {
  template: BuilderTemplate;
  state: BuilderState;
  locale: string;
  onLocale: (locale: string) => void;
}) {
  const { update, checked, problems } = state;
  return (
    <section class="section builder-card" aria-labelledby="details-heading">
      <h2 id="details-heading">{t('builder.details')}</h2>
      <Problems id="problems-template" messages={checked ? problems?.template : undefined} />
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
    </section>
  );
}

/** The preview: the real client form in a new tab, over the saved template, in a chosen language. */
export function PreviewSection({
  id,
  dirty,
  locale,
  onLocale,
}: {
  id: string;
  dirty: boolean;
  locale: string;
  onLocale: (locale: string) => void;
}) {
  const href = `/f/preview?template=${encodeURIComponent(id)}&locale=${encodeURIComponent(locale)}`;
  return (
    <section class="section builder-card" aria-labelledby="preview-heading">
      <h2 id="preview-heading">{t('builder.preview')}</h2>
      <p>{t('builder.previewIntro')}</p>
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
    </section>
  );
}

/**
 * The bar at the bottom: what the save said (and beside it whether the template's payments can
 * be collected), unsaved changes, Save, and Reload after a conflict.
 */
export function SaveBar({ state, navigate }: { state: BuilderState; navigate: (path: string) => void }) {
  const { status, notice, error, dirty, busy, conflict, save, reload } = state;
  return (
    <div class="builder-savebar">
      <Status text={status} />
      <PaymentNoticeText notice={notice} navigate={navigate} />
      <ErrorMessage text={error} />
      {dirty ? <p class="builder-unsaved">{t('builder.unsaved')}</p> : null}
      <div class="actions">
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
