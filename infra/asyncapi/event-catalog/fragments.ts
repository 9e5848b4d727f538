import {
  MAX_REMINDER_DAYS,
  MAX_REMINDER_RULES,
  MIN_REMINDER_DAYS,
  REMINDER_WHEN,
} from '../../../services/onboardings/contract/reminder-schedule.ts';
import { arrayOf, integer, object, oneOfValues, type JsonSchema } from '../json-schema.ts';

/** Fragments more than one part of the catalog uses. */
const reminderRule = object({
  when: oneOfValues([...REMINDER_WHEN]),
  days: integer({ minimum: MIN_REMINDER_DAYS, maximum: MAX_REMINDER_DAYS }),
});
export const reminderSchedule = arrayOf(reminderRule, { maxItems: MAX_REMINDER_RULES });

export const partial = (properties: Record<string, JsonSchema>) => object({}, properties);
