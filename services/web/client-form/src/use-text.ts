import { useEffect, useState } from 'preact/hooks';
import { createTranslate, loadMessages, type Locale, type Translate } from './i18n.ts';

/**
 * The page's texts in `locale`, once its messages are loaded (the texts of the locale before
 * stay until then); the page's lang attribute follows. `onFailed` hears of a locale whose
 * messages cannot be loaded.
 */
export function useText(locale: Locale | null, onFailed?: (locale: Locale) => void) {
  const [text, setText] = useState<{ locale: Locale; t: Translate } | null>(null);
  useEffect(() => {
    if (!locale) return;
    let current = true;
    loadMessages(locale).then(
      (messages) => {
        if (!current) return;
        setText({ locale, t: createTranslate(locale, messages) });
        document.documentElement.lang = locale;
      },
      () => {
        if (current) onFailed?.(locale);
      },
    );
    return () => {
      current = false;
    };
  }, [locale]);
  return text;
}
