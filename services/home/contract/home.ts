import { z } from 'zod';

/**
 * What the workspace and the server share about Home (GET /workspace/v1/home): the sections
 * of what needs the team, each a few items and its total, the month's usage and the month's
 * figures per template. Pure and browser-safe.
 */

/** The sections, in the order the page shows them. */
export const HOME_SECTIONS = [
  'awaiting_review',
  'changes_requested',
  'overdue',
  'due_this_week',
  'recently_completed',
  'drafts',
] as const;
export type HomeSection = (typeof HOME_SECTIONS)[number];

/** Items per section; the section's total says how many more there are. */
export const HOME_SECTION_LIMIT = 10;

export const homeItem = z.object({
  id: z.string().uuid(),
  status: z.string(),
  client: z.object({
    id: z.string().uuid(),
    name: z.string().nullable(),
    email: z.string().nullable(),
  }),
  template: z.object({ id: z.string().uuid(), name: z.string() }),
  due_at: z.string().nullable().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601: the last change (completed: when it completed)'),
  assigned_to: z.string().uuid().nullable(),
  assignee_name: z.string().nullable(),
  assigned_to_me: z.boolean(),
  answers_awaiting_review: z.number().int(),
});
export type HomeItem = z.infer<typeof homeItem>;

export const homeSection = z.object({ total: z.number().int(), items: z.array(homeItem) });

export const templateFigures = z.object({
  template: z.object({ id: z.string().uuid(), name: z.string() }),
  sent: z.number().int().describe('first sent this month'),
  completed: z.number().int().describe('completed this month'),
  median_seconds_to_complete: z
    .number()
    .nullable()
    .describe('from first send to completion, of those completed this month'),
});
export type TemplateFigures = z.infer<typeof templateFigures>;

export const homeAnswer = z.object({
  sections: z.object(
    Object.fromEntries(HOME_SECTIONS.map((name) => [name, homeSection])) as Record<
      HomeSection,
      typeof homeSection
    >,
  ),
  usage: z.object({
    month: z.string().describe('YYYY-MM in the team’s time zone'),
    used: z.number().int(),
    limit: z.union([z.number().int(), z.literal('unlimited')]),
  }),
  templates: z.array(templateFigures),
  /** A new team sees what to do first: no template yet, no client yet. */
  counts: z.object({ templates: z.number().int(), clients: z.number().int() }),
});
export type HomeAnswer = z.infer<typeof homeAnswer>;
