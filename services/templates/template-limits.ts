import type { FastifyRequest } from 'fastify';
import { validationFailure } from '../../shared/http/input-guard.ts';

/**
 * The caps of a template definition (the builder's POST and PUT /workspace/v1/templates,
 * the operator API's POST /admin/v1/teams/:team_id/templates and /gallery-templates),
 * generous for real forms and small enough that every check of a save is quick.
 *
 * They are counted on the parsed body before any other check (schema, catalogue, rules)
 * by one linear walk that stops at the first count over its cap: a body over them answers
 * 400 invalid_body in the route's own form, the message naming the cap, and nothing is
 * stored. The body itself is capped first by its route's bodyLimit (TEMPLATE_BODY_LIMIT,
 * 413 above it; ../../shared/http/body-limits.ts).
 */
export const TEMPLATE_LIMITS = {
  /** Steps of a template. */
  steps: 50,
  /** Fields of one step. */
  fieldsPerStep: 200,
  /** Fields of the whole template. */
  fields: 1000,
  /** Items of any other list (a choice field's options; the catalogue further keeps choices to 100). */
  listItems: 500,
  /** Keys of any object (a config, a translation, settings). */
  objectKeys: 200,
  /** Locales of one `translations` and of the whole template together. */
  locales: 9,
  /** Nesting of a config, conditional_rules, settings or translations value (`{"a": [{}]}` is 3). */
  jsonDepth: 5,
  /** Characters of any text anywhere in the template. */
  textLength: 20_000,
} as const;

/**
 * Largest template body (JSON bytes): 512 KiB, 413 above it. A form at every cap with
 * labels, help texts, options and two translations takes about 400 KiB; the body limit
 * keeps the parse and checks of the largest save short (tens of milliseconds).
 */
export const TEMPLATE_BODY_LIMIT = 512 * 1024;

/** The parts of a step or field whose inner JSON the spec leaves open. */
const JSON_PARTS = new Set(['config', 'conditional_rules', 'settings', 'translations']);

const MAX_PROBLEMS = 20;

export interface LimitProblem {
  /** Where, in the form of validation paths: `steps/3/fields`. */
  path: string;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const number = (value: number) => value.toLocaleString('en-US');

/**
 * Every cap of TEMPLATE_LIMITS the body goes over (empty when none), in one pass linear in
 * the body's size. A body of another shape (no object, steps not a list) is left to the
 * schema. Counts come first: a template with too many steps or fields is refused before
 * any of its steps is read.
 */
export function templateLimitProblems(body: unknown): LimitProblem[] {
  if (!isObject(body)) return [];
  const steps = body['steps'];
  const problems: LimitProblem[] = [];
  const add = (path: string, message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ path, message });
  };

  if (Array.isArray(steps)) {
    if (steps.length > TEMPLATE_LIMITS.steps) {
      return [
        {
          path: 'steps',
          message: `A template holds at most ${TEMPLATE_LIMITS.steps} steps (this one has ${number(steps.length)})`,
        },
      ];
    }
    let total = 0;
    steps.forEach((step, index) => {
      const fields = isObject(step) ? step['fields'] : undefined;
      if (!Array.isArray(fields)) return;
      total += fields.length;
      if (fields.length > TEMPLATE_LIMITS.fieldsPerStep) {
        add(
          `steps/${index}/fields`,
          `A step holds at most ${TEMPLATE_LIMITS.fieldsPerStep} fields (step ${index + 1} has ${number(fields.length)})`,
        );
      }
    });
    if (total > TEMPLATE_LIMITS.fields) {
      add(
        'steps',
        `A template holds at most ${number(TEMPLATE_LIMITS.fields)} fields in all (this one has ${number(total)})`,
      );
    }
    if (problems.length > 0) return problems;
  }

  const locales = new Set<string>();
  const walk = (value: unknown, path: string, jsonDepth: number, key: string): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof value === 'string') {
      if (value.length > TEMPLATE_LIMITS.textLength) {
        add(path, `A text holds at most ${number(TEMPLATE_LIMITS.textLength)} characters`);
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const inJson = jsonDepth > 0 || JSON_PARTS.has(key);
    const depth = inJson ? jsonDepth + 1 : 0;
    if (depth > TEMPLATE_LIMITS.jsonDepth) {
      add(path, `${key || 'A value'} nests at most ${TEMPLATE_LIMITS.jsonDepth} levels of lists and objects`);
      return;
    }
    if (Array.isArray(value)) {
      const counted = key === 'steps' || key === 'fields';
      if (!counted && value.length > TEMPLATE_LIMITS.listItems) {
        add(
          path,
          `A list holds at most ${TEMPLATE_LIMITS.listItems} items (this one has ${number(value.length)})`,
        );
        return;
      }
      value.forEach((item, index) => walk(item, `${path}/${index}`, depth, inJson ? key : ''));
      return;
    }
    const keys = Object.keys(value);
    if (keys.length > TEMPLATE_LIMITS.objectKeys) {
      add(
        path,
        `An object holds at most ${TEMPLATE_LIMITS.objectKeys} keys (this one has ${number(keys.length)})`,
      );
      return;
    }
    if (key === 'translations' && jsonDepth === 0) {
      if (keys.length > TEMPLATE_LIMITS.locales) {
        add(
          path,
          `translations hold at most ${TEMPLATE_LIMITS.locales} languages (these have ${keys.length})`,
        );
        return;
      }
      for (const locale of keys) locales.add(locale);
    }
    for (const name of keys) {
      if (name.length > TEMPLATE_LIMITS.textLength) {
        add(path, `A key holds at most ${number(TEMPLATE_LIMITS.textLength)} characters`);
        continue;
      }
      walk(
        (value as Record<string, unknown>)[name],
        path ? `${path}/${name}` : name,
        depth,
        inJson ? key : name,
      );
    }
  };
  walk(body, '', 0, '');
  if (locales.size > TEMPLATE_LIMITS.locales) {
    add(
      'translations',
      `A template is translated into at most ${TEMPLATE_LIMITS.locales} languages (this one uses ${locales.size})`,
    );
  }
  return problems;
}

/**
 * A route's preValidation hook: a body over the caps fails as a validation of the body
 * (400 invalid_body in the form of the route's API, every problem in `details.issues`)
 * before the schema or anything else reads it.
 */
export async function refuseOversizedTemplate(request: FastifyRequest): Promise<void> {
  const problems = templateLimitProblems(request.body);
  if (problems.length === 0) {
    // The schema's check of a large template runs in a turn of its own, after other requests.
    await new Promise((resolve) => setImmediate(resolve));
    return;
  }
  throw validationFailure(
    'body',
    problems.map((problem) => ({
      keyword: 'limit',
      instancePath: problem.path ? `/${problem.path}` : '',
      schemaPath: '#/limit',
      params: { problem: 'text' as const },
      message: problem.message,
    })),
  );
}
