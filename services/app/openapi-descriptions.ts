/**
 * Descriptions of operations in the spec's words (client-onboarding-api.md, Endpoints;
 * operator-and-portal-api.md), by operationId. The route's own summary stays the short
 * line; this is the longer text generators put in doc comments.
 */
export const PUBLIC_DESCRIPTIONS: Readonly<Record<string, string>> = {
  getMe:
    "Scope: any valid key; the team's plan must include API access. Response 200: `team` {`id` uuid, `name` string, `tier` string such as pro, pro_trial, business} and `limits` {`onboardings_per_month` (number for capped plans, or the string unlimited for Business), `api_rate_limit` (string describing the per-minute cap)}.",
  listClients:
    'Scope clients:read. Query: limit, offset, email (exact match, case-insensitive). Sorted newest first. Response 200: `clients` (array of client objects) and `total`.',
  getClient:
    "Scope clients:read. Response 200: `client`. Unknown ID or another team's client: 404, error text Client not found.",
  createClient:
    'Scope clients:write. Body: `name` (string, required), `email` (string, required), `company`, `phone`, `notes`, `locale`, `date_format`, `timezone`, `custom_fields` (object). Unknown keys are ignored. A wrong type for `locale`, `date_format`, `timezone` or `custom_fields` returns 400; `company` must be a string or null. Created: 201 with `client`. A client with the same email already exists in the team: 200 with the existing `client`; nothing is created. Errors: 400 name and email are required; 400 Invalid email address; 400 company must be a string or null; 400 a length message for name, company or phone; 422 with code link_blocked when client-facing text contains a short link.',
  listOnboardings:
    'Scope onboardings:read. Query: limit, offset, `status` (draft, sent, in_progress, completed, cancelled, expired; other values 400 invalid_body), `client_id`, `archived` (false default, true, only, all). Onboardings of erased clients are never listed. Response 200: `onboardings` and `total`.',
  getOnboarding:
    'Scope onboardings:read. Response 200: `onboarding` including `template_snapshot`. Unknown ID: 404 target_unavailable. Non-UUID ID: 400 invalid_body.',
  createOnboarding:
    'Scope onboardings:write. Body: `template_id` (uuid, required; own or gallery template), `client_id` (uuid, required), `due_date` (optional; YYYY-MM-DD or a timestamp with offset), `expires_at` (optional or null; same formats). Response 201: `onboarding` (status draft). Errors (code): 400 invalid_body; 400 invalid_deadline; 404 template_missing; 404 client_scope_missing; 409 gallery_template_copy_required (`details` holds `field_id` and `step_id`); 410 client_erasure_pending. Accepts Idempotency-Key (1 to 128 visible ASCII characters; a replay within 24 hours answers the original result with Idempotent-Replayed: true).',
  updateOnboarding:
    'Scope onboardings:write. Body (at least one field): `status` (cancelled or in_progress), `due_date` (same formats; null clears), `assigned_to` (team member ID; null or empty string unassigns). Response 200: `onboarding`. Errors (code): 400 invalid_body; 400 invalid_assignee; 400 invalid_deadline; 404 target_unavailable (not found, or archived); 409 invalid_state. Accepts Idempotency-Key.',
  sendOnboarding:
    "Scope onboardings:write. Sends or resends: issues a new client link, deactivates prior tokens, queues the invite email, schedules reminders, emits onboarding.sent. The onboarding must be draft, sent or in_progress and not archived. Optional body: `force` (bypasses the active-client check), `pin` (exactly 6 digits; when omitted, the previous link's PIN carries over). Response 200: `success`, `queued`, `command_id`. Checks, the first failing decides: 400 invalid_payment; 403 payment_plan_required; 400 payment_not_connected; 409 agreement_text_required; 403 sending_paused or 429 recipient_cap_reached; 403 limit_reached. Other errors: 400 invalid_body; 404 target_unavailable; 404 client_scope_missing; 409 requires_force; 409 invalid_state. Accepts Idempotency-Key.",
  listTemplates:
    "Scope templates:read. Query: page, limit. Newest first. Only the team's own templates. Response 200: `templates`, `total`, `page`, `limit`.",
  getTemplate:
    'Scope templates:read. Response 200: `template` with steps and fields. Unknown ID: 404, error text Template not found.',
  listResponses:
    'Scope responses:read. Query: `onboarding_id` (uuid, required), page, limit. Oldest first. Response 200: `responses`, `total`, `page`, `limit`. Errors: 400 onboarding_id is required (missing or not a valid ID); 404 Onboarding not found.',
  listEvents:
    "Scope events:read. Query: `limit` (1 to 100, default 25), `type` (one of the event types). Returns the team's most recent audit events, newest first. No cursor and no since parameter. Response 200: `events`. Error: 400 with text beginning Unknown event type and listing the allowed values.",
  subscribeHook:
    'Scope webhooks:write. Body: `event` (one of the eight event types, required), `target_url` (public HTTPS URL, max 500 characters, no username or password; private and internal hosts refused). Response 201: `id`. Each request creates a new active subscription, even for an identical event and URL. Errors: 400 event and target_url are required; 400 Invalid event with the allowed list; 400 target_url must be a public HTTPS URL. The deliveries are described under webhooks.',
  unsubscribeHook:
    'Scope webhooks:write. Body: `id` (uuid, required). Response 200: `success` (true). Errors: 400 id is required; 404 Subscription not found.',

  portalOpenOnboarding:
    '200 `onboarding` (`id`, `status`, `progress_pct`, `due_date`, `template_snapshot`, `responses`); the first open after each send records onboarding.started and moves a sent onboarding to in_progress.',
  portalSaveAnswer:
    '200 `response` with status `draft` (autosave; counts as a saved answer for the active-client check).',
  portalSubmitStep:
    "200 `onboarding`; the step's answers become `submitted`; one response.submitted event; when every required step is submitted the onboarding is `completed` with progress_pct 100 and onboarding.completed is recorded; a required field without an answer: 400 code `invalid_body`.",
  portalSignField: '201; signature.signed with signer_role `client`.',
  portalUploadFile: 'A multipart/form-data body with one file. 201; file.uploaded.',

  adminCreateTeam:
    '`name`, `plan`, optional `timezone` (IANA, default UTC), `locale` (default en-US), `date_format` (default MM/DD/YYYY), `email_sender_name`. 201 `team`.',
  adminCreateApiKey:
    'Optional `name`, `scopes` (array, at least one), optional `expires_on` (YYYY-MM-DD; the key ends at the end of that UTC date). 201 `api_key` and `secret` (shown once); a sixth active key: 409 code `key_limit_reached`.',
  adminCreateTemplate:
    '`name`, optional `description`, `vertical`, `settings`, `translations`, and `steps`: each `title`, `sort_order`, optional `is_optional`, `conditional_rules`, `translations`, and `fields`: each `type`, `label`, `sort_order`, optional `is_required`, `config`, `conditional_rules`, `translations`. 201 `template` shaped as GET /api/v1/templates/:id.',
  adminGetOnboardingLink: '200 `token` (the active client token, or null) and `url`.',
  adminAdvanceClock: '`seconds`. 200 `now`; only with TEST_CLOCK on, else 404.',
  adminDrainWork:
    "200 once every projection has caught up with the event log, every consumer has handled every event, and every timer and automation pass due by the service's clock has run.",
};
