import { codedError } from '../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { operatorErrors } from '../../shared/http/operator-commands.ts';

/**
 * The errors of signed deliveries (signing secrets, webhook endpoints, delivery logs), in
 * the full error body of the public API: the same answers to the operator API and the
 * workspace. Codes it does not list answer as the operator table does.
 */
export const signedDeliveryErrors = registerDomainErrors('signed deliveries', {
  statuses: {
    team_not_found: 404,
    webhook_endpoint_not_found: 404,
    subscription_not_found: 404,
    delivery_not_found: 404,
    webhooks_plan_required: 403,
    invalid_event_types: 400,
    invalid_url: 400,
    webhook_endpoint_exists: 409,
  },
  form: (error, status) => codedError(status, error.code, error.message, error.details),
  fallback: operatorErrors,
});
