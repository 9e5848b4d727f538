import {
  contrastAgainstWhite,
  MIN_ACCENT_CONTRAST,
  ratioText,
} from '../../../../../../access/contract/accent-contrast.ts';
import { t } from '../../../i18n.ts';
import { isHexColor } from './team-settings.ts';

/**
 * Why the accent colour typed cannot be saved, in the reader's words, or null: not a
 * #rrggbb colour, or too light to read on white (the ratio the service would refuse, from the
 * same rule: services/access/contract/accent-contrast.ts). Empty: no accent colour.
 */
export function accentProblem(accent: string): string | null {
  const value = accent.trim();
  if (value === '') return null;
  if (!isHexColor(value)) return t('check.accentInvalid');
  const ratio = contrastAgainstWhite(value);
  if (ratio >= MIN_ACCENT_CONTRAST) return null;
  return t('check.accentContrast', { ratio: ratioText(ratio), needed: MIN_ACCENT_CONTRAST.toFixed(1) });
}

/** Pure: the Settings field an API refusal's message is about (it starts with the field's name). */
export function fieldOfProblem(message: string): 'accent' | 'name' | null {
  if (/^accent_color\b/.test(message)) return 'accent';
  if (/^name\b/.test(message)) return 'name';
  return null;
}
