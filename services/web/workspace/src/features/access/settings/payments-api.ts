/**
 * The team's Stripe account through the workspace API (owners and admins): connect (an
 * account link to Stripe's onboarding), refresh (Stripe's word on the account now) and
 * disconnect. Paths and answers are the generated OpenAPI types.
 */
import { call } from '../../../../../shared/api/client.ts';
import type { components } from '../../../../../shared/api/openapi.d.ts';
import { api } from '../../../api.ts';

/** The team's payments as GET /workspace/v1/team and these routes answer them. */
export type Payments = components['schemas']['WorkspaceTeam']['payments'];

export const connectStripe = () => call(api.POST('/workspace/v1/team/stripe/connect'));

export const refreshStripe = () => call(api.POST('/workspace/v1/team/stripe/refresh'));

export const disconnectStripe = () => call(api.DELETE('/workspace/v1/team/stripe'));
