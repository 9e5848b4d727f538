import type { Locale } from '../../shared/i18n/locales.ts';
import type { NotificationKind } from './contract/notifications.ts';

/**
 * The texts of the digest email in the nine languages (ICU MessageFormat). `subject` and
 * `intro` take {count} and {team}; `greeting` takes {name}; `item` takes {template}.
 */
export interface DigestMessages {
  subject: string;
  greeting: string;
  intro: string;
  kinds: Record<NotificationKind, string>;
  item: string;
  open: string;
  openText: string;
  footer: string;
}

export const DIGEST_MESSAGES: Readonly<Record<Locale, DigestMessages>> = {
  'en-US': {
    subject: '[{team}] {count, plural, one {# onboarding needs} other {# onboardings need}} your attention',
    greeting: 'Hello {name},',
    intro: 'Here is what happened in {team}:',
    kinds: {
      completed: 'Completed',
      resubmitted: 'Answers resubmitted',
      signed: 'Signed',
      paid: 'Paid',
      overdue: 'Overdue',
    },
    item: '{template}',
    open: 'Open the workspace',
    openText: 'Open the workspace: {url}',
    footer: 'You receive these emails for your onboardings. Choose which ones under Your account.',
  },
  'en-GB': {
    subject: '[{team}] {count, plural, one {# onboarding needs} other {# onboardings need}} your attention',
    greeting: 'Hello {name},',
    intro: 'Here is what happened in {team}:',
    kinds: {
      completed: 'Completed',
      resubmitted: 'Answers resubmitted',
      signed: 'Signed',
      paid: 'Paid',
      overdue: 'Overdue',
    },
    item: '{template}',
    open: 'Open the workspace',
    openText: 'Open the workspace: {url}',
    footer: 'You receive these emails for your onboardings. Choose which ones under Your account.',
  },
  'de-DE': {
    subject:
      '[{team}] {count, plural, one {# Onboarding braucht} other {# Onboardings brauchen}} Ihre Aufmerksamkeit',
    greeting: 'Hallo {name},',
    intro: 'Das ist in {team} passiert:',
    kinds: {
      completed: 'Abgeschlossen',
      resubmitted: 'Antworten erneut eingereicht',
      signed: 'Unterschrieben',
      paid: 'Bezahlt',
      overdue: 'Überfällig',
    },
    item: '{template}',
    open: 'Arbeitsbereich öffnen',
    openText: 'Arbeitsbereich öffnen: {url}',
    footer:
      'Sie erhalten diese E-Mails zu Ihren Onboardings. Unter „Ihr Konto“ wählen Sie, welche Sie erhalten.',
  },
  'fr-FR': {
    subject:
      '[{team}] {count, plural, one {# onboarding demande} other {# onboardings demandent}} votre attention',
    greeting: 'Bonjour {name},',
    intro: 'Voici ce qui s’est passé chez {team} :',
    kinds: {
      completed: 'Terminé',
      resubmitted: 'Réponses renvoyées',
      signed: 'Signé',
      paid: 'Payé',
      overdue: 'En retard',
    },
    item: '{template}',
    open: 'Ouvrir l’espace de travail',
    openText: 'Ouvrir l’espace de travail : {url}',
    footer: 'Vous recevez ces e-mails pour vos onboardings. Choisissez lesquels dans Votre compte.',
  },
  'es-ES': {
    subject:
      '[{team}] {count, plural, one {# onboarding necesita} other {# onboardings necesitan}} tu atención',
    greeting: 'Hola, {name}:',
    intro: 'Esto es lo que ha pasado en {team}:',
    kinds: {
      completed: 'Completado',
      resubmitted: 'Respuestas reenviadas',
      signed: 'Firmado',
      paid: 'Pagado',
      overdue: 'Vencido',
    },
    item: '{template}',
    open: 'Abrir el espacio de trabajo',
    openText: 'Abrir el espacio de trabajo: {url}',
    footer: 'Recibes estos correos por tus onboardings. Elige cuáles en Tu cuenta.',
  },
  'it-IT': {
    subject:
      '[{team}] {count, plural, one {# onboarding richiede} other {# onboarding richiedono}} la tua attenzione',
    greeting: 'Ciao {name},',
    intro: 'Ecco cosa è successo in {team}:',
    kinds: {
      completed: 'Completato',
      resubmitted: 'Risposte inviate di nuovo',
      signed: 'Firmato',
      paid: 'Pagato',
      overdue: 'In ritardo',
    },
    item: '{template}',
    open: "Apri l'area di lavoro",
    openText: "Apri l'area di lavoro: {url}",
    footer: 'Ricevi queste email per i tuoi onboarding. Scegli quali in Il tuo account.',
  },
  'nl-NL': {
    subject: '[{team}] {count, plural, one {# onboarding vraagt} other {# onboardings vragen}} je aandacht',
    greeting: 'Hallo {name},',
    intro: 'Dit is er gebeurd bij {team}:',
    kinds: {
      completed: 'Voltooid',
      resubmitted: 'Antwoorden opnieuw ingediend',
      signed: 'Ondertekend',
      paid: 'Betaald',
      overdue: 'Te laat',
    },
    item: '{template}',
    open: 'Werkruimte openen',
    openText: 'Werkruimte openen: {url}',
    footer: 'Je ontvangt deze e-mails voor je onboardings. Kies welke onder Je account.',
  },
  'pt-BR': {
    subject:
      '[{team}] {count, plural, one {# onboarding precisa} other {# onboardings precisam}} da sua atenção',
    greeting: 'Olá, {name},',
    intro: 'Veja o que aconteceu em {team}:',
    kinds: {
      completed: 'Concluído',
      resubmitted: 'Respostas reenviadas',
      signed: 'Assinado',
      paid: 'Pago',
      overdue: 'Atrasado',
    },
    item: '{template}',
    open: 'Abrir o espaço de trabalho',
    openText: 'Abrir o espaço de trabalho: {url}',
    footer: 'Você recebe estes e-mails pelos seus onboardings. Escolha quais em Sua conta.',
  },
  'ja-JP': {
    subject: '[{team}] 対応が必要なオンボーディングが{count}件あります',
    greeting: '{name} 様',
    intro: '{team} での最新情報です：',
    kinds: {
      completed: '完了',
      resubmitted: '回答が再提出されました',
      signed: '署名済み',
      paid: '支払い済み',
      overdue: '期限切れ',
    },
    item: '{template}',
    open: 'ワークスペースを開く',
    openText: 'ワークスペースを開く：{url}',
    footer:
      'ご担当のオンボーディングについてこのメールをお送りしています。受け取る通知は「アカウント」で選べます。',
  },
};
