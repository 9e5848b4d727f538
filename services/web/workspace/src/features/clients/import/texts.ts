import { t } from '../../../i18n.ts';
import type { Preview, SendSummary } from './api.ts';

/*
 * The server names each bad row and each refusal by code (and in English words); the
 * workspace says the known ones in the member's language and shows the server's words for
 * any other.
 */

const ROW_CODES = new Set(['email_invalid', 'email_missing', 'name_missing', 'locale_unknown', 'too_long']);
const REFUSAL_CODES = new Set([
  'limit_reached',
  'recipient_cap_reached',
  'payment_plan_required',
  'payment_not_connected',
  'sending_paused',
  'email_unverified',
  'client_erasure_pending',
]);

export const rowProblemText = (problem: Preview['problems'][number]) =>
  ROW_CODES.has(problem.code)
    ? t(`clientsImport.problem.${problem.code}`, { row: problem.row, value: problem.value })
    : problem.text;

export const refusalText = (result: SendSummary['results'][number]) =>
  result.code && REFUSAL_CODES.has(result.code)
    ? t(`clientsImport.reason.${result.code}`)
    : (result.error ?? result.code ?? '');
