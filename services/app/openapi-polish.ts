import { z } from 'zod';
import { apiKeySchema } from '../access/index.ts';
import { memberSchema, successSchema, teamSchema } from '../access/index.ts';
import { workspaceApiKeySchema } from '../access/index.ts';
import { workspaceMemberSchema } from '../access/index.ts';
import { settingsSchema } from '../access/index.ts';
import { signedInView } from '../access/index.ts';
import { actionSchema, ruleSchema } from '../automation/index.ts';
import { workspaceRuleSchema } from '../automation/index.ts';
import { clientSchema } from '../../projections/clients/queries.ts';
import { auditEventSchema } from '../events/index.ts';
import { hookPayloadDocument } from '../hooks/index.ts';
import { deliverySchema, endpointSchema } from '../hooks/index.ts';
import { subscriptionSchema } from '../hooks/index.ts';
import { emailSchema } from '../mail/index.ts';
import { onboardingDetail, onboardingListItem } from '../../projections/onboardings/queries.ts';
import { createdOnboarding, patchedOnboarding } from '../onboardings/index.ts';
import { faceSchema } from '../onboardings/index.ts';
import { fileSchema, portalOnboarding } from '../onboardings/index.ts';
import { responseSchema } from '../../projections/responses/queries.ts';
import { templateListItemSchema } from '../templates/index.ts';
import { templateFieldSchema, templateSchema, templateStepSchema } from '../templates/index.ts';
import { fullErrorSchema, rateLimitedSchema, textErrorSchema } from '../../shared/http/error-schemas.ts';
import { zodToJsonSchema2020 } from '../../shared/http/openapi-3-1-schema.ts';
import type { DocumentPolish } from '../../shared/http/openapi-document.ts';
import { parkedEventSchema } from '../../shared/projections/parked-events-routes.ts';

/** The named schemas of the document: every resource and error body, by its zod schema. */
const NAMED_SCHEMAS: Record<string, z.ZodTypeAny> = {
  Error: fullErrorSchema,
  TextError: textErrorSchema,
  RateLimitedError: rateLimitedSchema,
  Success: successSchema,
  Client: clientSchema,
  OnboardingListItem: onboardingListItem,
  Onboarding: onboardingDetail,
  CreatedOnboarding: createdOnboarding,
  UpdatedOnboarding: patchedOnboarding,
  TemplateField: templateFieldSchema,
  TemplateStep: templateStepSchema,
  Template: templateSchema,
  TemplateListItem: templateListItemSchema,
  Response: responseSchema,
  AuditEvent: auditEventSchema,
  Team: teamSchema,
  Member: memberSchema,
  ApiKey: apiKeySchema,
  AutomationAction: actionSchema,
  AutomationRule: ruleSchema,
  Email: emailSchema,
  WebhookEndpoint: endpointSchema,
  Delivery: deliverySchema,
  ParkedEvent: parkedEventSchema,
  PortalFace: faceSchema,
  PortalOnboarding: portalOnboarding,
  UploadedFile: fileSchema,
  WorkspaceSession: signedInView,
  WorkspaceMember: workspaceMemberSchema,
  WorkspaceApiKey: workspaceApiKeySchema,
  WorkspaceTeam: settingsSchema,
  WorkspaceAutomationRule: workspaceRuleSchema,
  HookSubscription: subscriptionSchema,
};

/**
 * What the route schemas cannot say themselves: groups, security, named schemas, webhooks.
 * Each route's schema names its operation (operationId, summary, description).
 */
export function documentPolish(): DocumentPolish {
  const hooks = hookPayloadDocument();
  return {
    groups: [
      {
        prefix: '/api/v1',
        tag: 'public',
        description:
          'The public API: header `Authorization: Bearer <API_KEY>` (a key made in the workspace or by the operator). Rate limits per IP address, per key and per key and IP address, shown on every answer in RateLimit-Policy and RateLimit.',
        security: [{ apiKey: [] }],
        rateLimitHeaders: true,
      },
      {
        prefix: '/admin/v1',
        tag: 'operator',
        description:
          'The operator API: header `Authorization: Bearer <ADMIN_TOKEN>`; every route answers 404 while ADMIN_TOKEN is unset. Provisions teams, keys, templates and automation rules.',
        security: [{ operatorToken: [] }],
      },
      {
        prefix: '/portal/v1',
        tag: 'portal',
        description:
          'The client portal API behind a client link (`/portal/v1/onboardings/:token`): an unknown, deactivated or expired token answers 404 link_inactive; a link with a PIN needs header X-Onboarding-Pin on every request, or the link session cookie that POST /portal/v1/onboardings/:token/session answers for the right PIN (401 pin_required).',
        security: [{}, { portalPin: [] }],
        rateLimitHeaders: true,
      },
      {
        prefix: '/workspace/v1',
        tag: 'workspace',
        description:
          "The team's workspace (the web settings): a session cookie from sign-up or sign-in, and X-CSRF-Token (from GET /workspace/v1/me) on every request that changes state.",
        security: [{ workspaceSession: [] }],
      },
      {
        prefix: '/webhooks',
        tag: 'webhooks',
        description:
          'What the service POSTs to your endpoints: the hook deliveries of POST /api/v1/automation/subscribe and the signed webhook deliveries of webhook endpoints, one body per event type (Standard Webhooks).',
        security: [{}],
      },
    ],
    components: Object.fromEntries(
      Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [name, zodToJsonSchema2020(schema)]),
    ),
    extraSchemas: hooks.schemas,
    webhooks: hooks.webhooks,
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description: 'Public API: `Authorization: Bearer <API_KEY>`.',
      },
      operatorToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'Operator API: `Authorization: Bearer <ADMIN_TOKEN>` (the ADMIN_TOKEN setting).',
      },
      portalPin: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Onboarding-Pin',
        description: "Client portal: the link's 6-digit PIN, when the link has one.",
      },
      workspaceSession: {
        type: 'apiKey',
        in: 'cookie',
        name: 'ws_session',
        description: 'Workspace: the session cookie set by sign-up, sign-in or accepting an invitation.',
      },
      csrfToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-CSRF-Token',
        description:
          "Workspace: the session's CSRF token (csrf_token of GET /workspace/v1/me), on every request that changes state.",
      },
    },
    // Relative: the document is served by the service it describes (PUBLIC_URL, or
    // http://127.0.0.1:3000 after `npm start`).
    servers: [{ url: '/', description: 'The host that serves this document' }],
  };
}
