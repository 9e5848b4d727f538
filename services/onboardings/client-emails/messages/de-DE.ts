import type { EmailMessages } from './en-US.ts';

/** The emails to a client in German (./en-US.ts is the source). */
export const DE_DE: EmailMessages = {
  'greeting.named': 'Hallo {name},',
  'greeting.anonymous': 'Guten Tag,',
  due: 'Bitte füllen Sie es bis zum {date} aus.',
  pin: 'Das Formular fragt nach der PIN, die Ihnen {team} separat mitteilt: Sie steht nie in einer E-Mail mit Ihrem Link.',
  personal: 'Dieser Link ist persönlich: Bitte leiten Sie diese E-Mail nicht weiter.',
  footer: '{team} hat Ihnen diese E-Mail zu „{form}“ gesendet.',
  'open.button': 'Formular öffnen',
  'open.text': 'Formular öffnen: {url}',
  'open.without_link':
    'Öffnen Sie Ihr Formular über den Link in der Einladungs-E-Mail, die Sie erhalten haben.',
  'invite.subject': '{team} lädt Sie ein, {form} auszufüllen',
  'invite.intro': '{team} lädt Sie ein, „{form}“ auszufüllen.',
  'reminder.subject': 'Erinnerung: {form} von {team}',
  'reminder.intro': 'Eine Erinnerung von {team}: „{form}“ wartet noch auf Sie.',
  'reminder.message': 'Eine Nachricht von {team}:',
  'reopened.subject': '{team} hat {form} wieder geöffnet',
  'reopened.intro': '{team} hat „{form}“ für Sie wieder geöffnet.',
  'reopened.reason': 'Warum {team} es wieder geöffnet hat:',
  'changes.subject': '{team} bittet Sie, Antworten in {form} zu ändern',
  'changes.intro': '{team} hat Ihre Antworten zu „{form}“ geprüft und bittet Sie, Folgendes zu ändern:',
  'changes.rejected': 'nicht angenommen',
  'changes.changes_requested': 'bitte ändern',
  'changes.item': '{label} ({decision})',
  'changes.button': 'Antworten ändern',
  'changes.text': 'Antworten ändern: {url}',
  'completed.subject': 'Ihre Kopie von {form}',
  'completed.intro': 'Vielen Dank: {team} hat „{form}“ erhalten.',
  'completed.copy': 'Was Sie gesendet haben',
  'completed.button': 'Kopie ansehen',
  'completed.text': 'Ihre Kopie dessen, was Sie gesendet haben: {url}',
  'completed.without_link':
    'Ihre Kopie dessen, was Sie gesendet haben, finden Sie über den Link Ihrer Einladungs-E-Mail.',
};
