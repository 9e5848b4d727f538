/**
 * Texts the field components share: a config text, the help text, the id lists that tie a
 * control to its descriptions, and the page's language. Problems are worded by the page's
 * problemText (problems.ts), so a message beside a field is the one in the error summary.
 */
import type { LocalizedField } from './field-props.ts';

export function configText(field: LocalizedField, key: string): string | null {
  const value = field.config?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export const helpText = (field: LocalizedField) => configText(field, 'help_text');

/** The ids of the elements that describe a control, or undefined when none. */
export function describedBy(...ids: (string | null | undefined | false)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length > 0 ? list.join(' ') : undefined;
}

/**
 * The page's language, for list words ("PDF, PNG und JPEG"): the shell keeps the <html>
 * lang attribute on the chosen locale.
 */
export function pageLocale(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en-US';
}
