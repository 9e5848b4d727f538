import type { ComponentChildren } from 'preact';
import { isLocale, LANGUAGE_NAMES, LOCALES, type Locale } from '../i18n.ts';

/** The page's language switcher: each language named in its own language. */
export function LanguageSelect(props: {
  locale: Locale;
  onChoose(locale: Locale): void;
  label: ComponentChildren;
  /** The label's language when it is not the page's (the preview's label is English). */
  labelLang?: string;
}) {
  return (
    <div class="language">
      <label for="language" lang={props.labelLang}>
        {props.label}
      </label>
      <select
        id="language"
        value={props.locale}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (isLocale(value)) props.onChoose(value);
        }}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
