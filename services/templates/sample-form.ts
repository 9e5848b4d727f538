/**
 * A template that holds one field of every catalogue type (./contract/field-catalogue.ts), with a
 * German translation, in the operator API's template body. `npm run demo` creates it so a
 * person can open a real form after `npm start`; tests use it to walk every field.
 */
interface SampleField {
  type: string;
  label: string;
  sort_order: number;
  is_required?: boolean;
  config?: Record<string, unknown>;
  translations?: Record<string, Record<string, unknown>>;
}

interface SampleStep {
  title: string;
  sort_order: number;
  is_optional?: boolean;
  translations?: Record<string, Record<string, unknown>>;
  fields: SampleField[];
}

/** A choice field's options, written value: label. */
const choices = (options: Record<string, string>) =>
  Object.entries(options).map(([value, label]) => ({ value, label }));

export const SAMPLE_FORM: {
  name: string;
  description: string;
  translations: Record<string, Record<string, unknown>>;
  steps: SampleStep[];
} = {
  name: 'New client intake',
  description: 'A few details so we can start working together.',
  translations: { 'de-DE': { name: 'Aufnahme neuer Mandanten' } },
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      translations: { 'de-DE': { title: 'Über Sie' } },
      fields: [
        { type: 'heading', label: 'Your details', sort_order: 1 },
        {
          type: 'paragraph',
          label: 'We use these details only to prepare your engagement letter.',
          sort_order: 2,
        },
        {
          type: 'short_text',
          label: 'Full name',
          sort_order: 3,
          is_required: true,
          translations: { 'de-DE': { label: 'Vollständiger Name' } },
        },
        { type: 'email', label: 'Email address', sort_order: 4, is_required: true },
        { type: 'phone', label: 'Phone number', sort_order: 5 },
        {
          type: 'date',
          label: 'Date of birth',
          sort_order: 6,
          is_required: true,
          config: { min_date: '1900-01-01' },
          translations: { 'de-DE': { label: 'Geburtsdatum' } },
        },
      ],
    },
    {
      title: 'Your business',
      sort_order: 2,
      fields: [
        {
          type: 'single_choice',
          label: 'Type of business',
          sort_order: 1,
          is_required: true,
          config: {
            options: choices({ sole: 'Sole trader', partnership: 'Partnership', company: 'Limited company' }),
          },
        },
        {
          type: 'multiple_choice',
          label: 'Services you need',
          sort_order: 2,
          config: {
            options: choices({ bookkeeping: 'Bookkeeping', payroll: 'Payroll', tax: 'Tax returns' }),
          },
        },
        {
          type: 'dropdown',
          label: 'Country',
          sort_order: 3,
          config: { options: ['Germany', 'Japan', 'United Kingdom', 'United States'] },
        },
        {
          type: 'number',
          label: 'Number of employees',
          sort_order: 4,
          config: { min: 0, max: 100000, step: 1 },
        },
        {
          type: 'long_text',
          label: 'Anything else we should know?',
          sort_order: 5,
          config: { help_text: 'Optional. A few sentences are plenty.', max_length: 2000 },
        },
        {
          type: 'checkbox',
          label: 'Privacy consent',
          sort_order: 6,
          is_required: true,
          config: { statement: 'I agree that my details are stored to prepare my engagement.' },
        },
        {
          type: 'signature',
          label: 'Engagement letter',
          sort_order: 7,
          is_required: true,
          config: {
            agreement_text:
              'I engage the firm to provide the services chosen above under its standard terms, and confirm that the details I gave are true.',
            is_sample_text: false,
          },
        },
        {
          type: 'payment',
          label: 'Set-up fee',
          sort_order: 8,
          config: { amount_cents: 15000, currency: 'EUR', description: 'One-time set-up of your account' },
        },
      ],
    },
    {
      title: 'Documents',
      sort_order: 3,
      is_optional: true,
      fields: [
        {
          type: 'file_upload',
          label: 'Proof of identity',
          sort_order: 1,
          config: {
            help_text: 'A passport or ID card: a photo or a scan.',
            accept: ['application/pdf', 'image/png', 'image/jpeg'],
            max_files: 3,
          },
        },
      ],
    },
  ],
};
