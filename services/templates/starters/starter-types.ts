import type { Locale } from '../../../shared/i18n/locales.ts';
import type { FieldType } from '../contract/field-catalogue.ts';
import type { Json } from '../template-events.ts';

/**
 * The shape of a built-in starter template (one file a vertical in this folder): every text
 * a person reads is written in all nine locales, so a copy can be made in any team's
 * language with the other eight as the template's translations (./starter-content.ts).
 */

/** One text in every locale of the workspace and the client's form. */
export type Texts = Readonly<Record<Locale, string>>;

export interface StarterField {
  type: Exclude<FieldType, 'payment'>;
  label: Texts;
  /** Required only where the onboarding is pointless without the answer. */
  required?: boolean;
  help_text?: Texts;
  placeholder?: Texts;
  /** A checkbox's statement. */
  statement?: Texts;
  /** A heading's or paragraph's text. */
  text?: Texts;
  /** Choice options: a stable value (kept across languages) and its label. */
  options?: ReadonlyArray<{ value: string; label: Texts }>;
  /**
   * A signature's agreement: sample text the team replaces with its own (the copy is marked
   * is_sample_text, so a send is refused until then). Written in the team's language only,
   * never as a translation, so no translated sample outlives the team's own wording.
   */
  sample_agreement?: Texts;
  /** Config without texts (file types, counts, limits), as in ../contract/field-catalogue.ts. */
  config?: Readonly<Record<string, Json>>;
}

export interface StarterStep {
  title: Texts;
  optional?: boolean;
  fields: readonly StarterField[];
}

export interface Starter {
  /** Fixed, so the gallery's "Use this template" names it like any gallery template. */
  id: string;
  name: Texts;
  description: Texts;
  /** The trade it is for, in words (the gallery and the templates list show it). */
  vertical: Texts;
  steps: readonly StarterStep[];
}
