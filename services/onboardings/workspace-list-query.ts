import { z } from 'zod';
import { DUE_FILTERS, LIST_SORTS, REVIEW_FILTERS } from '../../projections/onboardings/workspace-queries.ts';
import { ONBOARDING_STATUSES } from './onboarding-events.ts';

/** The list's filters, search and order (the list, its CSV export and the bulk actions' view). */
export const listFilters = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe('words of the client’s name or email (each a word start), or part of the template’s name'),
  review: z
    .enum(REVIEW_FILTERS)
    .optional()
    .describe('awaiting_review: answers the client submitted wait on the team'),
  sort: z.enum(LIST_SORTS).default('created'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(ONBOARDING_STATUSES).optional(),
  assignee: z
    .union([z.string().uuid(), z.literal('unassigned')])
    .optional()
    .describe('a member id, or unassigned'),
  due: z
    .enum(DUE_FILTERS)
    .optional()
    .describe('overdue: due date passed and still open; week: due within the next 7 days; none: no due date'),
  archived: z.enum(['hide', 'only']).default('hide'),
});
