import { accountant } from './accountant.ts';
import { agency } from './agency.ts';
import { clinic } from './clinic.ts';
import { coach } from './coach.ts';
import { lawyer } from './lawyer.ts';
import { realEstate } from './real-estate.ts';
import type { Starter } from './starter-types.ts';

/**
 * The built-in starter templates every team sees in its gallery, one file a trade. They are
 * code, not rows: a new team needs nothing copied at sign-up, and a better starter reaches
 * every team with the next release (docs/decisions/0093-built-in-starter-templates.md).
 */
export const STARTERS: readonly Starter[] = [accountant, lawyer, coach, agency, realEstate, clinic];

export function starterById(id: string): Starter | undefined {
  return STARTERS.find((starter) => starter.id === id);
}

export { starterContent, starterGalleryItem, starterLocale } from './starter-content.ts';
export type { Starter } from './starter-types.ts';
