import { z } from 'zod';

/**
 * Query parameters of the spec's list endpoints (client-onboarding-api.md, Pagination
 * and Limits). `limit` takes 1 to 100; any other value (0, 101, 1.5, abc, empty) fails
 * with the message below. On non-onboarding routes the public API answers a failed
 * validation with `{ error: <message> }` (400, text-only); onboarding routes answer 400
 * invalid_body.
 */
export const LIMIT_MESSAGE = 'limit must be between 1 and 100';
export const OFFSET_MESSAGE = 'offset must be a whole number of 0 or more';
export const PAGE_MESSAGE = 'page must be a whole number of 1 or more';

const wholeNumber = (message: string) => z.coerce.number({ invalid_type_error: message }).int(message);

/** `limit`, 1 to 100, with a default (50 for most lists, 25 for events). */
export const limitParam = (defaultValue = 50) =>
  wholeNumber(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(100, LIMIT_MESSAGE).default(defaultValue);

/**
 * The largest offset or page: beyond it a number loses precision and the database refuses
 * the offset, so such values are a 400 like any other malformed offset.
 */
const LARGEST_POSITION = Number.MAX_SAFE_INTEGER;

export const offsetParam = wholeNumber(OFFSET_MESSAGE)
  .min(0, OFFSET_MESSAGE)
  .max(LARGEST_POSITION, OFFSET_MESSAGE)
  .default(0);
export const pageParam = wholeNumber(PAGE_MESSAGE)
  .min(1, PAGE_MESSAGE)
  .max(LARGEST_POSITION, PAGE_MESSAGE)
  .default(1);

/** clients, onboardings: `limit` (default 50), `offset` (default 0). Extend with `.extend({...})`. */
export const offsetPaginationQuery = z.object({ limit: limitParam(50), offset: offsetParam });

/** templates, responses: `limit` (default 50), `page` (from 1, default 1). */
export const pagePaginationQuery = z.object({ limit: limitParam(50), page: pageParam });

/** events: `limit` (default 25), no cursor. */
export const eventsLimitQuery = z.object({ limit: limitParam(25) });

/**
 * The workspace lists' total: exact up to a cap, past it the cap with `total_capped`
 * (docs/decisions/0104-totals-counted-up-to-a-cap.md). The public API's totals stay exact.
 */
export const cappedTotal = {
  total: z.number().int().describe('how many match; with total_capped, more than this many'),
  total_capped: z.boolean().describe('true: counting stopped here, and more than `total` match'),
};
