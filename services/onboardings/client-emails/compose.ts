import { humanDate } from '../../../shared/i18n/human-date.ts';
import { emailTranslator, type EmailTranslator } from './catalog.ts';
import { fieldLink, portalLink, type ClientEmailInput } from './email-input.ts';
import type { ClientEmailExtras, ClientEmailKind } from './kinds.ts';
import { renderHtml, renderText, type EmailBlock, type EmailDocument } from './layout.ts';

/** One rendered email: its subject, plain-text part and HTML part. */
export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

/** What a kind writes: its subject and the blocks between the greeting and the common lines. */
interface KindContent {
  subject: string;
  blocks: EmailBlock[];
}

type KindWriter<K extends ClientEmailKind> = (
  input: ClientEmailInput & ClientEmailExtras[K],
  t: EmailTranslator['t'],
  names: { team: string; form: string },
) => KindContent;

/** The link block to the form (at one answer when `fieldId`), or the pointer to the invite when the token is unknown. */
function openBlock(
  t: EmailTranslator['t'],
  input: ClientEmailInput,
  token: string | undefined,
  link: { button: 'open.button' | 'changes.button'; text: 'open.text' | 'changes.text'; fieldId?: string },
): EmailBlock {
  if (!token) return { kind: 'paragraph', text: t('open.without_link') };
  const url = link.fieldId
    ? fieldLink(input.publicUrl, token, link.fieldId)
    : portalLink(input.publicUrl, token);
  return { kind: 'link', label: t(link.button), text: t(link.text, { url }), url };
}

const OPEN = { button: 'open.button', text: 'open.text' } as const;

/** Each kind's subject and blocks, in the email's language. */
export const KIND_WRITERS: { [K in ClientEmailKind]: KindWriter<K> } = {
  invite: (input, t, names) => ({
    subject: t('invite.subject', names),
    blocks: [{ kind: 'paragraph', text: t('invite.intro', names) }, openBlock(t, input, input.token, OPEN)],
  }),
  reminder: (input, t, names) => ({
    subject: t('reminder.subject', names),
    blocks: [
      { kind: 'paragraph', text: t('reminder.intro', names) },
      ...(input.message?.trim()
        ? [{ kind: 'quote' as const, label: t('reminder.message', names), text: input.message.trim() }]
        : []),
      openBlock(t, input, input.token, OPEN),
    ],
  }),
  reopened: (input, t, names) => ({
    subject: t('reopened.subject', names),
    blocks: [
      { kind: 'paragraph', text: t('reopened.intro', names) },
      ...(input.reason?.trim()
        ? [{ kind: 'quote' as const, label: t('reopened.reason', names), text: input.reason.trim() }]
        : []),
      openBlock(t, input, input.token, OPEN),
    ],
  }),
  changes_requested: (input, t, names) => ({
    subject: t('changes.subject', names),
    blocks: [
      { kind: 'paragraph', text: t('changes.intro', names) },
      {
        kind: 'list',
        items: input.answers.map((answer) => ({
          label: t('changes.item', {
            label: answer.label,
            decision: t(answer.decision === 'rejected' ? 'changes.rejected' : 'changes.changes_requested'),
          }),
          text: answer.reason,
        })),
      },
      openBlock(t, input, input.token, {
        button: 'changes.button',
        text: 'changes.text',
        fieldId: input.fieldId,
      }),
    ],
  }),
  completed: (input, t, names) => ({
    subject: t('completed.subject', names),
    blocks: [
      { kind: 'paragraph', text: t('completed.intro', names) },
      ...(input.steps.length > 0 ? [{ kind: 'heading' as const, text: t('completed.copy') }] : []),
      ...input.steps.flatMap((step): EmailBlock[] => [
        { kind: 'heading', text: step.title },
        { kind: 'list', items: step.answers.map((answer) => ({ label: answer.label, text: answer.text })) },
      ]),
      input.token
        ? {
            kind: 'link',
            label: t('completed.button'),
            text: t('completed.text', { url: portalLink(input.publicUrl, input.token) }),
            url: portalLink(input.publicUrl, input.token),
          }
        : { kind: 'paragraph', text: t('completed.without_link') },
    ],
  }),
};

/** The email of `kind` as a document, and the keys its language lacked (written in US English). */
export function clientEmailDocument<K extends ClientEmailKind>(
  kind: K,
  input: ClientEmailInput & ClientEmailExtras[K],
): { document: EmailDocument; fallbacks: string[] } {
  const { t, locale, fallbacks } = emailTranslator(input.locale);
  const names = { team: input.fromName, form: input.templateName };
  const content = (KIND_WRITERS[kind] as KindWriter<K>)(input, t, names);
  const due = input.dueOn ?? input.dueDate;
  const notes = [
    ...(due ? [t('due', { date: humanDate(due, locale, input.timeZone) })] : []),
    ...(input.pinRequired ? [t('pin', names)] : []),
  ];
  const document: EmailDocument = {
    lang: locale,
    subject: content.subject,
    greeting: input.clientName ? t('greeting.named', { name: input.clientName }) : t('greeting.anonymous'),
    blocks: content.blocks,
    notes,
    footer: [t('personal'), t('footer', names)],
    team: {
      name: input.fromName,
      logoUrl: input.brand?.logoUrl ?? null,
      accentColor: input.brand?.accentColor ?? null,
    },
  };
  return { document, fallbacks };
}

/** The email of `kind` for `input`: subject, plain text and HTML in the input's language. */
export function composeClientEmail<K extends ClientEmailKind>(
  kind: K,
  input: ClientEmailInput & ClientEmailExtras[K],
): ComposedEmail {
  const { document } = clientEmailDocument(kind, input);
  return { subject: document.subject, text: renderText(document), html: renderHtml(document) };
}
