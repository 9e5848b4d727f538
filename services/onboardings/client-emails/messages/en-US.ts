/**
 * The texts of the emails to a client, US English: the source every other language
 * translates (ICU MessageFormat; `{team}` is the team's sender name, `{form}` the form's
 * name). Each language has the same keys (checked by the type and by ../render.test.ts).
 */
export const EN_US = {
  'greeting.named': 'Hello {name},',
  'greeting.anonymous': 'Hello,',
  due: 'Please complete it by {date}.',
  pin: 'The form asks for the PIN that {team} gives you separately: it is never in an email with your link.',
  personal: 'This link is personal: please do not forward this email.',
  footer: '{team} sent you this email about "{form}".',
  'open.button': 'Open your form',
  'open.text': 'Open your form: {url}',
  'open.without_link': 'Open your form with the link in the invite email you received.',
  'invite.subject': '{team} invited you to fill in {form}',
  'invite.intro': '{team} has invited you to fill in "{form}".',
  'reminder.subject': 'Reminder: {form} from {team}',
  'reminder.intro': 'This is a reminder from {team}: "{form}" is still waiting for you.',
  'reminder.message': 'A message from {team}:',
  'reopened.subject': '{team} reopened {form}',
  'reopened.intro': '{team} has reopened "{form}" for you.',
  'reopened.reason': 'Why {team} reopened it:',
  'changes.subject': '{team} asks you to change answers in {form}',
  'changes.intro': '{team} has looked at your answers to "{form}" and asks you to change:',
  'changes.rejected': 'not accepted',
  'changes.changes_requested': 'please change',
  'changes.item': '{label} ({decision})',
  'changes.button': 'Change your answers',
  'changes.text': 'Change your answers: {url}',
  'completed.subject': 'Your copy of {form}',
  'completed.intro': 'Thank you: {team} has received "{form}".',
  'completed.copy': 'What you sent',
  'completed.button': 'See your copy',
  'completed.text': 'Your copy of what you sent: {url}',
  'completed.without_link': 'Your copy of what you sent is on the link of your invite email.',
} as const;

export type EmailMessageKey = keyof typeof EN_US;
export type EmailMessages = Readonly<Record<EmailMessageKey, string>>;
