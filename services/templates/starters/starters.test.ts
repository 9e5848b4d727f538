import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../shared/i18n/locales.ts';
import { fieldConfigProblems, localizeField, translationFor } from '../contract/field-catalogue.ts';
import { templateDecider } from '../template-decider.ts';
import { templateDefinition } from '../template-definition.ts';
import { templateLimitProblems } from '../template-limits.ts';
import { STARTERS, starterById, starterContent, starterGalleryItem } from './index.ts';

/** Every Texts object of a starter, with where it is. */
function allTexts(value: unknown, path: string): Array<{ path: string; texts: Record<string, unknown> }> {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => allTexts(item, `${path}[${index}]`));
  const record = value as Record<string, unknown>;
  if ('en-US' in record) return [{ path, texts: record }];
  return Object.entries(record).flatMap(([key, item]) => allTexts(item, `${path}.${key}`));
}

describe('the built-in starter templates', () => {
  it('are six, one for each trade, with distinct fixed ids', () => {
    expect(STARTERS).toHaveLength(6);
    expect(new Set(STARTERS.map((starter) => starter.id)).size).toBe(6);
    for (const starter of STARTERS) expect(starterById(starter.id)).toBe(starter);
  });

  it.each(STARTERS.map((starter) => [starter.name['en-US'], starter] as const))(
    '%s has every text in all nine locales, none empty',
    (_name, starter) => {
      const found = allTexts(starter, 'starter');
      expect(found.length).toBeGreaterThan(10);
      for (const { path, texts } of found) {
        expect(Object.keys(texts).sort(), path).toEqual([...LOCALES].sort());
        for (const locale of LOCALES) {
          const text = texts[locale];
          expect(typeof text === 'string' && text.trim().length > 0, `${path}.${locale}`).toBe(true);
        }
      }
      for (const step of starter.steps) {
        for (const field of step.fields) {
          expect(field.label, 'every field has a label').toBeDefined();
          if (['single_choice', 'multiple_choice', 'dropdown'].includes(field.type)) {
            expect(field.options?.length, `${field.label['en-US']} has options`).toBeGreaterThan(0);
          }
        }
      }
    },
  );

  it.each(
    STARTERS.flatMap((starter) => LOCALES.map((locale) => [starter.name['en-US'], locale, starter] as const)),
  )('%s in %s is a template the builder would save', (_name, locale, starter) => {
    const content = starterContent(starter, locale);
    expect(starter.steps.length).toBeGreaterThanOrEqual(2);
    expect(starter.steps.length).toBeLessThanOrEqual(4);
    expect(templateDefinition.safeParse(content).success).toBe(true);
    expect(templateLimitProblems(content)).toEqual([]);
    const problems = content.steps.flatMap((step) =>
      step.fields.flatMap((field) => fieldConfigProblems(field)),
    );
    expect(problems).toEqual([]);
    // The builder's own check: the decider creates it with the rules' format checked.
    const events = templateDecider.decide(
      {
        type: 'CreateTemplate',
        data: { template_id: crypto.randomUUID(), team_id: crypto.randomUUID(), content, check_rules: true },
        metadata: { now: new Date() },
      },
      templateDecider.initialState(),
    );
    expect(events).toHaveLength(1);
    // Its own language is the team's; the other eight are translations.
    expect(content.name).toBe(starter.name[locale]);
    const translated = Object.keys(content.translations as object).sort();
    expect(translated).toEqual(LOCALES.filter((other) => other !== locale).sort());
    expect(content.steps.every((step) => step.fields.every((field) => field.type !== 'payment'))).toBe(true);
  });

  it('a copy made in English reads in Japanese for a ja-JP client, options included', () => {
    for (const starter of STARTERS) {
      const content = starterContent(starter, 'en-US');
      content.steps.forEach((step, stepIndex) => {
        expect(translationFor(step.translations, 'ja-JP')['title']).toBe(
          starter.steps[stepIndex]!.title['ja-JP'],
        );
        step.fields.forEach((field, fieldIndex) => {
          const source = starter.steps[stepIndex]!.fields[fieldIndex]!;
          const japanese = localizeField(field, 'ja-JP');
          expect(japanese.label).toBe(source.label['ja-JP']);
          const options = (japanese.config?.['options'] ?? []) as Array<{ value: string; label: string }>;
          expect(options.map((option) => option.label)).toEqual(
            (source.options ?? []).map((option) => option.label['ja-JP']),
          );
        });
      });
    }
  });

  it('keeps sample agreement text out of the translations and marks it as sample text', () => {
    for (const starter of STARTERS) {
      const content = starterContent(starter, 'de-DE');
      for (const field of content.steps.flatMap((step) => step.fields)) {
        if (field.type !== 'signature') continue;
        expect(field.config['is_sample_text']).toBe(true);
        for (const locale of LOCALES) {
          expect(translationFor(field.translations, locale)['agreement_text']).toBeUndefined();
        }
      }
    }
  });

  it('names a gallery row in the reader language', () => {
    const item = starterGalleryItem(STARTERS[0]!, 'fr-FR');
    expect(item.name).toBe(STARTERS[0]!.name['fr-FR']);
    expect(item.description).toBe(STARTERS[0]!.description['fr-FR']);
    expect(item.vertical).toBe(STARTERS[0]!.vertical['fr-FR']);
  });
});
