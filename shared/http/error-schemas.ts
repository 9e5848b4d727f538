import { z } from 'zod';

/**
 * zod schemas of the spec's error bodies (client-onboarding-api.md, Errors), for route
 * `response` maps: they put every error of a route into the OpenAPI document. They pass
 * unknown keys through, so `details` or `requires_force` reach the client unchanged.
 */
export const fullErrorSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    request_id: z.string(),
  })
  .passthrough();

export const textErrorSchema = z.object({ error: z.string() }).passthrough();

export const rateLimitedSchema = z
  .object({ error: z.string(), code: z.literal('rate_limited') })
  .describe(
    'Rate limit reached. Header Retry-After: seconds until the window resets (1 to 60). No request id.',
  );

export const coded = (description: string) => fullErrorSchema.describe(description);
export const text = (description: string) => textErrorSchema.describe(description);
