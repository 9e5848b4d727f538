import { DOCUMENT_FILES, EMAIL, FULL_NAME, PHONE } from './common-texts.ts';
import type { Starter } from './starter-types.ts';

/**
 * A clinic's new patient: contact, insurance, medical history and the signed consent. The
 * consent's text is sample text: the clinic writes its own before the first send.
 */
export const clinic: Starter = {
  id: '6f1c2a10-3b1e-4c55-9a31-0a7c1d5e0006',
  name: {
    'en-US': 'New patient intake',
    'en-GB': 'New patient registration',
    'de-DE': 'Aufnahme neuer Patienten',
    'fr-FR': 'Accueil nouveau patient',
    'es-ES': 'Alta de nuevo paciente',
    'it-IT': 'Accettazione nuovo paziente',
    'nl-NL': 'Inschrijving nieuwe patiënt',
    'pt-BR': 'Cadastro de novo paciente',
    'ja-JP': '新患受付',
  },
  description: {
    'en-US':
      "Collects a new patient's contact details, insurance, medical history and signed consent before the first visit.",
    'en-GB':
      "Collects a new patient's contact details, insurance, medical history and signed consent before the first appointment.",
    'de-DE':
      'Sammelt vor dem ersten Termin Kontaktdaten, Versicherung, Krankengeschichte und die unterschriebene Einwilligung neuer Patienten.',
    'fr-FR':
      "Recueille avant la première consultation les coordonnées, l'assurance, les antécédents médicaux et le consentement signé du patient.",
    'es-ES':
      'Recoge antes de la primera cita los datos de contacto, el seguro, el historial médico y el consentimiento firmado del paciente.',
    'it-IT':
      'Raccoglie prima della prima visita i recapiti, l’assicurazione, l’anamnesi e il consenso firmato del nuovo paziente.',
    'nl-NL':
      'Verzamelt vóór het eerste bezoek de contactgegevens, verzekering, medische voorgeschiedenis en ondertekende toestemming van de patiënt.',
    'pt-BR':
      'Coleta antes da primeira consulta os dados de contato, o convênio, o histórico médico e o consentimento assinado do paciente.',
    'ja-JP': '初診の前に、新しい患者さんの連絡先、保険、既往歴、署名済みの同意書を集めます。',
  },
  vertical: {
    'en-US': 'Healthcare',
    'en-GB': 'Healthcare',
    'de-DE': 'Gesundheitswesen',
    'fr-FR': 'Santé',
    'es-ES': 'Sanidad',
    'it-IT': 'Sanità',
    'nl-NL': 'Zorg',
    'pt-BR': 'Saúde',
    'ja-JP': '医療',
  },
  steps: [
    {
      title: {
        'en-US': 'Contact details',
        'en-GB': 'Contact details',
        'de-DE': 'Kontaktdaten',
        'fr-FR': 'Coordonnées',
        'es-ES': 'Datos de contacto',
        'it-IT': 'Recapiti',
        'nl-NL': 'Contactgegevens',
        'pt-BR': 'Dados de contato',
        'ja-JP': '連絡先',
      },
      fields: [
        FULL_NAME,
        {
          type: 'date',
          required: true,
          label: {
            'en-US': 'Date of birth',
            'en-GB': 'Date of birth',
            'de-DE': 'Geburtsdatum',
            'fr-FR': 'Date de naissance',
            'es-ES': 'Fecha de nacimiento',
            'it-IT': 'Data di nascita',
            'nl-NL': 'Geboortedatum',
            'pt-BR': 'Data de nascimento',
            'ja-JP': '生年月日',
          },
        },
        EMAIL,
        PHONE,
        {
          type: 'short_text',
          label: {
            'en-US': 'Emergency contact (name and phone)',
            'en-GB': 'Emergency contact (name and phone)',
            'de-DE': 'Notfallkontakt (Name und Telefon)',
            'fr-FR': "Personne à prévenir en cas d'urgence (nom et téléphone)",
            'es-ES': 'Contacto de emergencia (nombre y teléfono)',
            'it-IT': 'Contatto di emergenza (nome e telefono)',
            'nl-NL': 'Contactpersoon voor noodgevallen (naam en telefoon)',
            'pt-BR': 'Contato de emergência (nome e telefone)',
            'ja-JP': '緊急連絡先（氏名と電話番号）',
          },
        },
      ],
    },
    {
      title: {
        'en-US': 'Insurance',
        'en-GB': 'Insurance',
        'de-DE': 'Versicherung',
        'fr-FR': 'Assurance',
        'es-ES': 'Seguro',
        'it-IT': 'Assicurazione',
        'nl-NL': 'Verzekering',
        'pt-BR': 'Convênio',
        'ja-JP': '保険',
      },
      fields: [
        {
          type: 'single_choice',
          label: {
            'en-US': 'How will your visits be paid?',
            'en-GB': 'How will your appointments be paid?',
            'de-DE': 'Wie werden Ihre Behandlungen bezahlt?',
            'fr-FR': 'Comment vos consultations seront-elles réglées ?',
            'es-ES': '¿Cómo se pagarán sus consultas?',
            'it-IT': 'Come verranno pagate le visite?',
            'nl-NL': 'Hoe worden uw afspraken betaald?',
            'pt-BR': 'Como suas consultas serão pagas?',
            'ja-JP': 'お支払い方法',
          },
          options: [
            {
              value: 'insurance',
              label: {
                'en-US': 'Health insurance',
                'en-GB': 'Health insurance',
                'de-DE': 'Krankenversicherung',
                'fr-FR': 'Assurance maladie',
                'es-ES': 'Seguro médico',
                'it-IT': 'Assicurazione sanitaria',
                'nl-NL': 'Zorgverzekering',
                'pt-BR': 'Convênio ou plano de saúde',
                'ja-JP': '健康保険',
              },
            },
            {
              value: 'self_pay',
              label: {
                'en-US': 'I pay myself',
                'en-GB': 'I pay privately',
                'de-DE': 'Selbstzahler',
                'fr-FR': 'Je règle moi-même',
                'es-ES': 'Pago yo mismo',
                'it-IT': 'Pago privatamente',
                'nl-NL': 'Ik betaal zelf',
                'pt-BR': 'Particular',
                'ja-JP': '自費',
              },
            },
          ],
        },
        {
          type: 'short_text',
          label: {
            'en-US': 'Insurance company',
            'en-GB': 'Insurer',
            'de-DE': 'Krankenkasse',
            'fr-FR': "Organisme d'assurance",
            'es-ES': 'Aseguradora',
            'it-IT': 'Compagnia assicurativa',
            'nl-NL': 'Zorgverzekeraar',
            'pt-BR': 'Operadora',
            'ja-JP': '保険者名',
          },
        },
        {
          type: 'short_text',
          label: {
            'en-US': 'Member ID',
            'en-GB': 'Policy or membership number',
            'de-DE': 'Versichertennummer',
            'fr-FR': "Numéro d'assuré",
            'es-ES': 'Número de póliza',
            'it-IT': 'Numero di polizza',
            'nl-NL': 'Polisnummer',
            'pt-BR': 'Número da carteirinha',
            'ja-JP': '記号・番号',
          },
        },
        {
          type: 'file_upload',
          label: {
            'en-US': 'Insurance card, front and back',
            'en-GB': 'Insurance card, front and back',
            'de-DE': 'Versichertenkarte, Vorder- und Rückseite',
            'fr-FR': "Carte d'assurance, recto et verso",
            'es-ES': 'Tarjeta del seguro, por ambas caras',
            'it-IT': 'Tessera assicurativa, fronte e retro',
            'nl-NL': 'Verzekeringspas, voor- en achterkant',
            'pt-BR': 'Carteirinha do convênio, frente e verso',
            'ja-JP': '保険証（表と裏）',
          },
          config: { accept: DOCUMENT_FILES, max_files: 2 },
        },
      ],
    },
    {
      title: {
        'en-US': 'Medical history',
        'en-GB': 'Medical history',
        'de-DE': 'Krankengeschichte',
        'fr-FR': 'Antécédents médicaux',
        'es-ES': 'Historial médico',
        'it-IT': 'Anamnesi',
        'nl-NL': 'Medische voorgeschiedenis',
        'pt-BR': 'Histórico médico',
        'ja-JP': '既往歴',
      },
      fields: [
        {
          type: 'long_text',
          label: {
            'en-US': 'Reason for your visit',
            'en-GB': 'Reason for your appointment',
            'de-DE': 'Grund Ihres Besuchs',
            'fr-FR': 'Motif de la consultation',
            'es-ES': 'Motivo de la consulta',
            'it-IT': 'Motivo della visita',
            'nl-NL': 'Reden van uw bezoek',
            'pt-BR': 'Motivo da consulta',
            'ja-JP': '受診の理由',
          },
        },
        {
          type: 'multiple_choice',
          label: {
            'en-US': 'Do you have any of these conditions?',
            'en-GB': 'Do you have any of these conditions?',
            'de-DE': 'Haben Sie eine dieser Erkrankungen?',
            'fr-FR': "Avez-vous l'une de ces affections ?",
            'es-ES': '¿Tiene alguna de estas afecciones?',
            'it-IT': 'Ha una di queste patologie?',
            'nl-NL': 'Hebt u een van deze aandoeningen?',
            'pt-BR': 'Você tem alguma destas condições?',
            'ja-JP': '該当する病気はありますか？',
          },
          options: [
            {
              value: 'asthma',
              label: {
                'en-US': 'Asthma or lung disease',
                'en-GB': 'Asthma or lung disease',
                'de-DE': 'Asthma oder Lungenerkrankung',
                'fr-FR': 'Asthme ou maladie pulmonaire',
                'es-ES': 'Asma o enfermedad pulmonar',
                'it-IT': 'Asma o malattia polmonare',
                'nl-NL': 'Astma of longziekte',
                'pt-BR': 'Asma ou doença pulmonar',
                'ja-JP': '喘息・肺の病気',
              },
            },
            {
              value: 'diabetes',
              label: {
                'en-US': 'Diabetes',
                'en-GB': 'Diabetes',
                'de-DE': 'Diabetes',
                'fr-FR': 'Diabète',
                'es-ES': 'Diabetes',
                'it-IT': 'Diabete',
                'nl-NL': 'Diabetes',
                'pt-BR': 'Diabetes',
                'ja-JP': '糖尿病',
              },
            },
            {
              value: 'heart',
              label: {
                'en-US': 'Heart disease or high blood pressure',
                'en-GB': 'Heart disease or high blood pressure',
                'de-DE': 'Herzerkrankung oder Bluthochdruck',
                'fr-FR': 'Maladie cardiaque ou hypertension',
                'es-ES': 'Enfermedad cardíaca o hipertensión',
                'it-IT': 'Malattia cardiaca o ipertensione',
                'nl-NL': 'Hartziekte of hoge bloeddruk',
                'pt-BR': 'Doença cardíaca ou pressão alta',
                'ja-JP': '心臓病・高血圧',
              },
            },
            {
              value: 'pregnancy',
              label: {
                'en-US': 'Pregnancy',
                'en-GB': 'Pregnancy',
                'de-DE': 'Schwangerschaft',
                'fr-FR': 'Grossesse',
                'es-ES': 'Embarazo',
                'it-IT': 'Gravidanza',
                'nl-NL': 'Zwangerschap',
                'pt-BR': 'Gravidez',
                'ja-JP': '妊娠中',
              },
            },
          ],
        },
        {
          type: 'long_text',
          label: {
            'en-US': 'Medications you take',
            'en-GB': 'Medicines you take',
            'de-DE': 'Medikamente, die Sie einnehmen',
            'fr-FR': 'Médicaments que vous prenez',
            'es-ES': 'Medicamentos que toma',
            'it-IT': 'Farmaci che assume',
            'nl-NL': 'Medicijnen die u gebruikt',
            'pt-BR': 'Medicamentos que você toma',
            'ja-JP': '服用中のお薬',
          },
        },
        {
          type: 'long_text',
          label: {
            'en-US': 'Allergies',
            'en-GB': 'Allergies',
            'de-DE': 'Allergien',
            'fr-FR': 'Allergies',
            'es-ES': 'Alergias',
            'it-IT': 'Allergie',
            'nl-NL': 'Allergieën',
            'pt-BR': 'Alergias',
            'ja-JP': 'アレルギー',
          },
        },
      ],
    },
    {
      title: {
        'en-US': 'Consent',
        'en-GB': 'Consent',
        'de-DE': 'Einwilligung',
        'fr-FR': 'Consentement',
        'es-ES': 'Consentimiento',
        'it-IT': 'Consenso',
        'nl-NL': 'Toestemming',
        'pt-BR': 'Consentimento',
        'ja-JP': '同意',
      },
      fields: [
        {
          type: 'checkbox',
          required: true,
          label: {
            'en-US': 'Your health information',
            'en-GB': 'Your health information',
            'de-DE': 'Ihre Gesundheitsdaten',
            'fr-FR': 'Vos données de santé',
            'es-ES': 'Sus datos de salud',
            'it-IT': 'I suoi dati sanitari',
            'nl-NL': 'Uw gezondheidsgegevens',
            'pt-BR': 'Seus dados de saúde',
            'ja-JP': '健康情報の取り扱い',
          },
          statement: {
            'en-US': 'I agree that the clinic keeps the health information I gave in my medical record.',
            'en-GB':
              'I agree that the clinic keeps the health information I have given in my medical record.',
            'de-DE':
              'Ich bin einverstanden, dass die Praxis meine Gesundheitsangaben in meiner Patientenakte speichert.',
            'fr-FR':
              "J'accepte que le cabinet conserve les informations de santé fournies dans mon dossier médical.",
            'es-ES':
              'Acepto que la clínica guarde en mi historia clínica los datos de salud que he facilitado.',
            'it-IT':
              'Acconsento che lo studio conservi nella mia cartella clinica i dati sanitari che ho fornito.',
            'nl-NL':
              'Ik ga ermee akkoord dat de praktijk de gezondheidsgegevens die ik heb gegeven in mijn dossier bewaart.',
            'pt-BR': 'Concordo que a clínica guarde no meu prontuário as informações de saúde que forneci.',
            'ja-JP': '記入した健康情報を当院の診療録に保管することに同意します。',
          },
        },
        {
          type: 'signature',
          required: true,
          label: {
            'en-US': 'Sign the consent to treatment',
            'en-GB': 'Sign the consent to treatment',
            'de-DE': 'Behandlungseinwilligung unterschreiben',
            'fr-FR': 'Signer le consentement aux soins',
            'es-ES': 'Firmar el consentimiento de tratamiento',
            'it-IT': 'Firmare il consenso alle cure',
            'nl-NL': 'Toestemming voor behandeling ondertekenen',
            'pt-BR': 'Assinar o consentimento para tratamento',
            'ja-JP': '診療への同意書に署名',
          },
          sample_agreement: {
            'en-US':
              "SAMPLE TEXT, replace it with your clinic's own consent: the care you provide, how you protect and share health information, cancellations and missed appointments, billing.",
            'en-GB':
              "SAMPLE TEXT, replace it with your clinic's own consent: the care you provide, how you protect and share health information, cancellations and missed appointments, billing.",
            'de-DE':
              'BEISPIELTEXT, ersetzen Sie ihn durch die Einwilligung Ihrer Praxis: die Behandlung, wie Sie Gesundheitsdaten schützen und weitergeben, Absagen und versäumte Termine, Abrechnung.',
            'fr-FR':
              "TEXTE D'EXEMPLE, remplacez-le par le consentement de votre cabinet : les soins proposés, la protection et le partage des données de santé, annulations et rendez-vous manqués, facturation.",
            'es-ES':
              'TEXTO DE EJEMPLO, sustitúyalo por el consentimiento de su clínica: la atención que presta, cómo protege y comparte los datos de salud, cancelaciones y citas perdidas, facturación.',
            'it-IT':
              'TESTO DI ESEMPIO, lo sostituisca con il consenso del suo studio: le cure offerte, come tutela e condivide i dati sanitari, disdette e appuntamenti mancati, fatturazione.',
            'nl-NL':
              'VOORBEELDTEKST, vervang deze door de toestemming van uw praktijk: de zorg die u biedt, hoe u gezondheidsgegevens beschermt en deelt, afzeggingen en gemiste afspraken, facturering.',
            'pt-BR':
              'TEXTO DE EXEMPLO, substitua-o pelo consentimento da sua clínica: o atendimento prestado, como vocês protegem e compartilham dados de saúde, cancelamentos e faltas, cobrança.',
            'ja-JP':
              'サンプル文です。貴院の同意書に置き換えてください：提供する診療、健康情報の保護と共有、キャンセルと無断欠席、費用の請求。',
          },
        },
      ],
    },
  ],
};
