import { RULE_LIMITS } from '../../../services/automation/automation-rule-events.ts';
import {
  anyValue,
  arrayOf,
  boolean,
  constant,
  integer,
  jsonObject,
  nonEmpty,
  nullable,
  object,
  ref,
  string,
  text,
  uuid,
  type JsonSchema,
} from '../json-schema.ts';

/** Shared schemas (components/schemas), referenced from the event data schemas. */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  SealedValue: {
    description:
      "A personal value encrypted with its data subject's own key (crypto-shredding). Published sealed, as stored; unreadable for good once the subject is erased.",
    ...object({
      pd: constant('v1'),
      subject: uuid,
      box: string({ description: 'base64 of iv, auth tag and ciphertext' }),
    }),
  },
  PersonalValue: {
    description: 'A personal value: sealed, or plain text in events written before sealing.',
    anyOf: [ref('SealedValue'), text],
  },
  PinHash: object({ salt: text, hash: text }),
  OnboardingBase: {
    description: 'Every onboarding event names its onboarding and team.',
    ...object({ onboarding_id: uuid, team_id: uuid }),
  },
  AutomationAction: {
    description: 'The action a rule takes, as the operator API writes it.',
    anyOf: [
      object({
        type: constant('send_email'),
        subject: string({ maxLength: RULE_LIMITS.subject }),
        body: string({ maxLength: RULE_LIMITS.body }),
      }),
      object({ type: constant('send_webhook'), url: string({ format: 'uri', maxLength: RULE_LIMITS.url }) }),
      object({ type: constant('create_onboarding'), template_id: uuid }),
      object({
        type: constant('notify_member'),
        member_id: uuid,
        message: string({ maxLength: RULE_LIMITS.message }),
      }),
    ],
  },
  TemplateField: object({
    id: nonEmpty,
    type: nonEmpty,
    label: text,
    sort_order: integer(),
    is_required: boolean,
    config: jsonObject,
    conditional_rules: anyValue,
    translations: anyValue,
  }),
  TemplateStep: object({
    id: nonEmpty,
    title: text,
    sort_order: integer(),
    is_optional: boolean,
    conditional_rules: anyValue,
    translations: anyValue,
    fields: arrayOf(ref('TemplateField')),
  }),
  TemplateContent: object({
    name: text,
    description: nullable(text),
    vertical: nullable(text),
    settings: jsonObject,
    translations: anyValue,
    steps: arrayOf(ref('TemplateStep')),
  }),
};
