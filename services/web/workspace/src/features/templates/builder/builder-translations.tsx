import { choiceOptions } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import { translated, withTranslation, type BuilderField, type Translations } from '../template-model.ts';
import { Field } from '../../../ui/index.ts';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, LOCALES } from '../../../../../../../shared/i18n/locales.ts';

/** The spec's locales; en-US is the template's own language, the others are translations. */
export const TRANSLATION_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

/** Each language named in its own language. */
export const LOCALE_NAMES: Readonly<Record<string, string>> = LANGUAGE_NAMES;

/**
 * The translated texts of one template, step or field in `locale`
 * (field-catalogue.ts translationFor: what is left empty stays in the template's language).
 */
export function TranslationInputs({
  idPrefix,
  locale,
  translations,
  keys,
  onChange,
}: {
  idPrefix: string;
  locale: string;
  translations: Translations | null;
  keys: Array<{ key: string; label: string; original: string }>;
  onChange: (translations: Translations | null) => void;
}) {
  const language = LOCALE_NAMES[locale] ?? locale;
  return (
    <div class="builder-translation" lang={locale}>
      {keys.map(({ key, label, original }) => (
        <Field
          key={key}
          id={`${idPrefix}-tr-${key}`}
          label={t('translation.label', { label, language })}
          hint={original ? t('translation.original', { text: original }) : undefined}
          value={translated(translations, locale, key)}
          onValue={(value) => onChange(withTranslation(translations, locale, key, value))}
        />
      ))}
    </div>
  );
}

/** The texts of a field that a translation may give (label, help, and the type's own text). */
export function fieldTranslationKeys(field: BuilderField) {
  const config = field.config;
  const text = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : '');
  const display = field.type === 'heading' || field.type === 'paragraph';
  const keys = [
    { key: 'label', label: display ? t('builder.title') : t('builder.label'), original: field.label },
  ];
  if (text('help_text'))
    keys.push({ key: 'help_text', label: t('builder.helpText'), original: text('help_text') });
  if (field.type === 'signature') {
    keys.push({ key: 'agreement_text', label: t('builder.agreementText'), original: text('agreement_text') });
  }
  if (field.type === 'checkbox')
    keys.push({ key: 'statement', label: t('builder.statement'), original: text('statement') });
  if (field.type === 'heading' || field.type === 'paragraph') {
    keys.push({ key: 'text', label: t('builder.displayText'), original: text('text') });
  }
  if (field.type === 'payment' && text('description')) {
    keys.push({ key: 'description', label: t('builder.paymentDescription'), original: text('description') });
  }
  return keys;
}

/** Option labels of a choice field in `locale`: translations[locale].options[value]. */
export function OptionTranslations({
  idPrefix,
  locale,
  field,
  onChange,
}: {
  idPrefix: string;
  locale: string;
  field: BuilderField;
  onChange: (translations: Translations | null) => void;
}) {
  const options = choiceOptions(field);
  if (options.length === 0) return null;
  const current = (field.translations?.[locale]?.options ?? {}) as Record<string, string>;
  const language = LOCALE_NAMES[locale] ?? locale;
  return (
    <div class="builder-translation" lang={locale}>
      {options.map((option, index) => (
        <Field
          key={option.value}
          id={`${idPrefix}-tr-option-${index}`}
          label={t('translation.label', { label: option.label, language })}
          value={current[option.value] ?? ''}
          onValue={(value) => {
            const next = { ...current };
            if (value) next[option.value] = value;
            else delete next[option.value];
            onChange(withTranslation(field.translations, locale, 'options', next));
          }}
        />
      ))}
    </div>
  );
}
