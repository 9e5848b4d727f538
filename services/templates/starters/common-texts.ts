import type { StarterField, Texts } from './starter-types.ts';

/** Texts and fields several starters share (a person's contact details, yes or no). */

export const FULL_NAME: StarterField = {
  type: 'short_text',
  required: true,
  label: {
    'en-US': 'Full name',
    'en-GB': 'Full name',
    'de-DE': 'Vollständiger Name',
    'fr-FR': 'Nom complet',
    'es-ES': 'Nombre completo',
    'it-IT': 'Nome e cognome',
    'nl-NL': 'Volledige naam',
    'pt-BR': 'Nome completo',
    'ja-JP': '氏名',
  },
};

export const EMAIL: StarterField = {
  type: 'email',
  required: true,
  label: {
    'en-US': 'Email address',
    'en-GB': 'Email address',
    'de-DE': 'E-Mail-Adresse',
    'fr-FR': 'Adresse e-mail',
    'es-ES': 'Correo electrónico',
    'it-IT': 'Indirizzo email',
    'nl-NL': 'E-mailadres',
    'pt-BR': 'E-mail',
    'ja-JP': 'メールアドレス',
  },
};

export const PHONE: StarterField = {
  type: 'phone',
  label: {
    'en-US': 'Phone number',
    'en-GB': 'Phone number',
    'de-DE': 'Telefonnummer',
    'fr-FR': 'Numéro de téléphone',
    'es-ES': 'Número de teléfono',
    'it-IT': 'Numero di telefono',
    'nl-NL': 'Telefoonnummer',
    'pt-BR': 'Telefone',
    'ja-JP': '電話番号',
  },
};

export const YES: Texts = {
  'en-US': 'Yes',
  'en-GB': 'Yes',
  'de-DE': 'Ja',
  'fr-FR': 'Oui',
  'es-ES': 'Sí',
  'it-IT': 'Sì',
  'nl-NL': 'Ja',
  'pt-BR': 'Sim',
  'ja-JP': 'はい',
};

export const NO: Texts = {
  'en-US': 'No',
  'en-GB': 'No',
  'de-DE': 'Nein',
  'fr-FR': 'Non',
  'es-ES': 'No',
  'it-IT': 'No',
  'nl-NL': 'Nee',
  'pt-BR': 'Não',
  'ja-JP': 'いいえ',
};

export const YES_NO = [
  { value: 'yes', label: YES },
  { value: 'no', label: NO },
] as const;

/** The title of a first step that asks who the client is. */
export const ABOUT_YOU: Texts = {
  'en-US': 'About you',
  'en-GB': 'About you',
  'de-DE': 'Über Sie',
  'fr-FR': 'À propos de vous',
  'es-ES': 'Sobre usted',
  'it-IT': 'Su di lei',
  'nl-NL': 'Over u',
  'pt-BR': 'Sobre você',
  'ja-JP': 'お客様について',
};

/** File types of documents a client scans or photographs. */
export const DOCUMENT_FILES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/heic'];
