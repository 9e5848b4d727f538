import { EMAIL, FULL_NAME, PHONE, YES_NO } from './common-texts.ts';
import type { Starter } from './starter-types.ts';

/**
 * A law firm's new matter: the client, the matter, who else is involved (the conflict
 * check runs before any advice) and the engagement letter, signed. The letter's text is
 * sample text: the firm writes its own before the first send.
 */
export const lawyer: Starter = {
  id: '6f1c2a10-3b1e-4c55-9a31-0a7c1d5e0002',
  name: {
    'en-US': 'New matter intake',
    'en-GB': 'New matter intake',
    'de-DE': 'Mandatsaufnahme',
    'fr-FR': 'Ouverture de dossier',
    'es-ES': 'Apertura de nuevo asunto',
    'it-IT': 'Apertura nuova pratica',
    'nl-NL': 'Intake nieuwe zaak',
    'pt-BR': 'Abertura de novo caso',
    'ja-JP': '新規案件の受付',
  },
  description: {
    'en-US':
      'Opens a new matter: client details, what it is about, the parties for the conflict check and the signed engagement letter.',
    'en-GB':
      'Opens a new matter: client details, what it concerns, the parties for the conflict check and the signed engagement letter.',
    'de-DE':
      'Eröffnet ein neues Mandat: Angaben zum Mandanten, worum es geht, die Beteiligten für die Kollisionsprüfung und die unterschriebene Mandatsvereinbarung.',
    'fr-FR':
      "Ouvre un nouveau dossier : coordonnées du client, objet de l'affaire, parties pour la vérification des conflits d'intérêts et lettre de mission signée.",
    'es-ES':
      'Abre un nuevo asunto: datos del cliente, de qué se trata, las partes para la comprobación de conflictos de interés y la hoja de encargo firmada.',
    'it-IT':
      "Apre una nuova pratica: dati del cliente, oggetto, parti coinvolte per la verifica dei conflitti d'interesse e lettera d'incarico firmata.",
    'nl-NL':
      'Opent een nieuwe zaak: gegevens van de cliënt, waar het om gaat, de partijen voor de conflictcheck en de ondertekende opdrachtbevestiging.',
    'pt-BR':
      'Abre um novo caso: dados do cliente, do que se trata, as partes para a verificação de conflito de interesses e o contrato de honorários assinado.',
    'ja-JP':
      '新規案件を開始します。依頼者情報、案件の概要、利益相反確認のための関係者、署名済みの委任契約書を集めます。',
  },
  vertical: {
    'en-US': 'Legal',
    'en-GB': 'Legal',
    'de-DE': 'Rechtsberatung',
    'fr-FR': 'Juridique',
    'es-ES': 'Jurídico',
    'it-IT': 'Legale',
    'nl-NL': 'Juridisch',
    'pt-BR': 'Jurídico',
    'ja-JP': '法律',
  },
  steps: [
    {
      title: {
        'en-US': 'Your details',
        'en-GB': 'Your details',
        'de-DE': 'Ihre Angaben',
        'fr-FR': 'Vos coordonnées',
        'es-ES': 'Sus datos',
        'it-IT': 'I suoi dati',
        'nl-NL': 'Uw gegevens',
        'pt-BR': 'Seus dados',
        'ja-JP': 'ご依頼者情報',
      },
      fields: [
        FULL_NAME,
        EMAIL,
        PHONE,
        {
          type: 'short_text',
          label: {
            'en-US': 'Company or organization (if you act for one)',
            'en-GB': 'Company or organisation (if you act for one)',
            'de-DE': 'Unternehmen oder Organisation (falls Sie für eine handeln)',
            'fr-FR': 'Société ou organisation (si vous agissez pour son compte)',
            'es-ES': 'Empresa u organización (si actúa en su nombre)',
            'it-IT': 'Azienda o organizzazione (se agisce per conto di una)',
            'nl-NL': 'Bedrijf of organisatie (als u namens een optreedt)',
            'pt-BR': 'Empresa ou organização (se agir em nome de uma)',
            'ja-JP': '会社・団体名（法人としてのご依頼の場合）',
          },
        },
      ],
    },
    {
      title: {
        'en-US': 'Your matter',
        'en-GB': 'Your matter',
        'de-DE': 'Ihr Anliegen',
        'fr-FR': 'Votre affaire',
        'es-ES': 'Su asunto',
        'it-IT': 'La sua pratica',
        'nl-NL': 'Uw zaak',
        'pt-BR': 'Seu caso',
        'ja-JP': 'ご相談内容',
      },
      fields: [
        {
          type: 'dropdown',
          label: {
            'en-US': 'Area of law',
            'en-GB': 'Area of law',
            'de-DE': 'Rechtsgebiet',
            'fr-FR': 'Domaine du droit',
            'es-ES': 'Área del derecho',
            'it-IT': 'Area del diritto',
            'nl-NL': 'Rechtsgebied',
            'pt-BR': 'Área do direito',
            'ja-JP': '分野',
          },
          options: [
            {
              value: 'business',
              label: {
                'en-US': 'Business and contracts',
                'en-GB': 'Business and contracts',
                'de-DE': 'Wirtschaft und Verträge',
                'fr-FR': 'Affaires et contrats',
                'es-ES': 'Empresas y contratos',
                'it-IT': 'Impresa e contratti',
                'nl-NL': 'Ondernemingen en contracten',
                'pt-BR': 'Empresarial e contratos',
                'ja-JP': '企業法務・契約',
              },
            },
            {
              value: 'employment',
              label: {
                'en-US': 'Employment',
                'en-GB': 'Employment',
                'de-DE': 'Arbeitsrecht',
                'fr-FR': 'Droit du travail',
                'es-ES': 'Laboral',
                'it-IT': 'Lavoro',
                'nl-NL': 'Arbeidsrecht',
                'pt-BR': 'Trabalhista',
                'ja-JP': '労働',
              },
            },
            {
              value: 'family',
              label: {
                'en-US': 'Family',
                'en-GB': 'Family',
                'de-DE': 'Familienrecht',
                'fr-FR': 'Droit de la famille',
                'es-ES': 'Familia',
                'it-IT': 'Famiglia',
                'nl-NL': 'Familierecht',
                'pt-BR': 'Família',
                'ja-JP': '家族・離婚',
              },
            },
            {
              value: 'property',
              label: {
                'en-US': 'Real estate',
                'en-GB': 'Property',
                'de-DE': 'Immobilienrecht',
                'fr-FR': 'Droit immobilier',
                'es-ES': 'Inmobiliario',
                'it-IT': 'Immobiliare',
                'nl-NL': 'Vastgoed',
                'pt-BR': 'Imobiliário',
                'ja-JP': '不動産',
              },
            },
            {
              value: 'estates',
              label: {
                'en-US': 'Wills and estates',
                'en-GB': 'Wills and probate',
                'de-DE': 'Erbrecht',
                'fr-FR': 'Successions',
                'es-ES': 'Herencias y testamentos',
                'it-IT': 'Successioni e testamenti',
                'nl-NL': 'Erfrecht',
                'pt-BR': 'Sucessões e testamentos',
                'ja-JP': '相続・遺言',
              },
            },
            {
              value: 'dispute',
              label: {
                'en-US': 'A dispute or lawsuit',
                'en-GB': 'A dispute or court claim',
                'de-DE': 'Streitigkeit oder Klage',
                'fr-FR': 'Litige ou procès',
                'es-ES': 'Conflicto o demanda',
                'it-IT': 'Controversia o causa',
                'nl-NL': 'Geschil of rechtszaak',
                'pt-BR': 'Disputa ou processo judicial',
                'ja-JP': '紛争・訴訟',
              },
            },
            {
              value: 'other',
              label: {
                'en-US': 'Something else',
                'en-GB': 'Something else',
                'de-DE': 'Etwas anderes',
                'fr-FR': 'Autre',
                'es-ES': 'Otro',
                'it-IT': 'Altro',
                'nl-NL': 'Iets anders',
                'pt-BR': 'Outro',
                'ja-JP': 'その他',
              },
            },
          ],
        },
        {
          type: 'long_text',
          required: true,
          label: {
            'en-US': 'What is it about?',
            'en-GB': 'What is it about?',
            'de-DE': 'Worum geht es?',
            'fr-FR': "De quoi s'agit-il ?",
            'es-ES': '¿De qué se trata?',
            'it-IT': 'Di cosa si tratta?',
            'nl-NL': 'Waar gaat het om?',
            'pt-BR': 'Do que se trata?',
            'ja-JP': 'ご相談の概要',
          },
          help_text: {
            'en-US': 'A few sentences are enough; we will go through the details together.',
            'en-GB': 'A few sentences are enough; we will go through the details together.',
            'de-DE': 'Ein paar Sätze genügen; die Einzelheiten besprechen wir gemeinsam.',
            'fr-FR': 'Quelques phrases suffisent ; nous verrons les détails ensemble.',
            'es-ES': 'Bastan unas frases; revisaremos los detalles juntos.',
            'it-IT': 'Bastano poche frasi; vedremo insieme i dettagli.',
            'nl-NL': 'Een paar zinnen is genoeg; de details bespreken we samen.',
            'pt-BR': 'Algumas frases bastam; veremos os detalhes juntos.',
            'ja-JP': '数行で構いません。詳しい内容は面談で伺います。',
          },
        },
        {
          type: 'date',
          label: {
            'en-US': 'Deadline or court date you know of',
            'en-GB': 'Deadline or hearing date you know of',
            'de-DE': 'Bekannte Frist oder bekannter Gerichtstermin',
            'fr-FR': "Échéance ou date d'audience connue",
            'es-ES': 'Plazo o fecha de juicio que conozca',
            'it-IT': "Scadenza o data d'udienza nota",
            'nl-NL': 'Bekende termijn of zittingsdatum',
            'pt-BR': 'Prazo ou data de audiência conhecida',
            'ja-JP': '把握している期限・期日',
          },
        },
      ],
    },
    {
      title: {
        'en-US': 'Conflict check',
        'en-GB': 'Conflict check',
        'de-DE': 'Kollisionsprüfung',
        'fr-FR': "Vérification des conflits d'intérêts",
        'es-ES': 'Comprobación de conflictos de interés',
        'it-IT': "Verifica dei conflitti d'interesse",
        'nl-NL': 'Conflictcheck',
        'pt-BR': 'Verificação de conflito de interesses',
        'ja-JP': '利益相反の確認',
      },
      fields: [
        {
          type: 'paragraph',
          label: {
            'en-US': 'Why we ask',
            'en-GB': 'Why we ask',
            'de-DE': 'Warum wir fragen',
            'fr-FR': 'Pourquoi nous le demandons',
            'es-ES': 'Por qué lo preguntamos',
            'it-IT': 'Perché lo chiediamo',
            'nl-NL': 'Waarom we dit vragen',
            'pt-BR': 'Por que perguntamos',
            'ja-JP': 'お伺いする理由',
          },
          text: {
            'en-US':
              'Before we can advise you, we must make sure we do not act for anyone on the other side. Your answers stay confidential.',
            'en-GB':
              'Before we can advise you, we must make sure we do not act for anyone on the other side. Your answers remain confidential.',
            'de-DE':
              'Bevor wir Sie beraten, müssen wir sicherstellen, dass wir niemanden auf der Gegenseite vertreten. Ihre Angaben bleiben vertraulich.',
            'fr-FR':
              'Avant de vous conseiller, nous devons vérifier que nous ne représentons personne de la partie adverse. Vos réponses restent confidentielles.',
            'es-ES':
              'Antes de asesorarle, debemos comprobar que no representamos a nadie de la otra parte. Sus respuestas son confidenciales.',
            'it-IT':
              'Prima di assisterla dobbiamo verificare di non rappresentare nessuno della controparte. Le sue risposte restano riservate.',
            'nl-NL':
              'Voordat we u adviseren, moeten we nagaan dat we niemand aan de andere kant bijstaan. Uw antwoorden blijven vertrouwelijk.',
            'pt-BR':
              'Antes de orientar você, precisamos confirmar que não representamos ninguém do outro lado. Suas respostas são confidenciais.',
            'ja-JP':
              'ご相談に応じる前に、相手方の代理をしていないことを確認する必要があります。ご回答は秘密として扱います。',
          },
        },
        {
          type: 'long_text',
          required: true,
          label: {
            'en-US': 'Other parties involved',
            'en-GB': 'Other parties involved',
            'de-DE': 'Weitere Beteiligte',
            'fr-FR': 'Autres parties concernées',
            'es-ES': 'Otras partes implicadas',
            'it-IT': 'Altre parti coinvolte',
            'nl-NL': 'Andere betrokken partijen',
            'pt-BR': 'Outras partes envolvidas',
            'ja-JP': '相手方・その他の関係者',
          },
          help_text: {
            'en-US':
              'Names of the people and companies on the other side or otherwise involved, one a line. Write "none" if there are none.',
            'en-GB':
              'Names of the people and companies on the other side or otherwise involved, one per line. Write "none" if there are none.',
            'de-DE':
              'Namen der Personen und Unternehmen auf der Gegenseite oder sonst beteiligt, einer je Zeile. Schreiben Sie „keine“, wenn es keine gibt.',
            'fr-FR':
              "Noms des personnes et sociétés de la partie adverse ou autrement concernées, une par ligne. Écrivez « aucune » s'il n'y en a pas.",
            'es-ES':
              'Nombres de las personas y empresas de la otra parte o implicadas de otro modo, una por línea. Escriba «ninguna» si no hay.',
            'it-IT':
              'Nomi delle persone e delle aziende della controparte o comunque coinvolte, una per riga. Scriva «nessuna» se non ce ne sono.',
            'nl-NL':
              'Namen van de personen en bedrijven aan de andere kant of anderszins betrokken, één per regel. Schrijf „geen” als die er niet zijn.',
            'pt-BR':
              'Nomes das pessoas e empresas do outro lado ou envolvidas de outra forma, uma por linha. Escreva "nenhuma" se não houver.',
            'ja-JP':
              '相手方やその他の関係する個人・会社の名前を1行に1件ずつご記入ください。いない場合は「なし」とご記入ください。',
          },
        },
        {
          type: 'single_choice',
          label: {
            'en-US': 'Has another lawyer advised you on this matter?',
            'en-GB': 'Has another solicitor or lawyer advised you on this matter?',
            'de-DE': 'Hat Sie bereits eine andere Kanzlei in dieser Sache beraten?',
            'fr-FR': 'Un autre avocat vous a-t-il déjà conseillé sur cette affaire ?',
            'es-ES': '¿Le ha asesorado otro abogado sobre este asunto?',
            'it-IT': "Un altro avvocato l'ha già assistita in questa pratica?",
            'nl-NL': 'Heeft een andere advocaat u in deze zaak al geadviseerd?',
            'pt-BR': 'Outro advogado já orientou você neste caso?',
            'ja-JP': 'この件で他の弁護士に相談したことはありますか？',
          },
          options: YES_NO,
        },
      ],
    },
    {
      title: {
        'en-US': 'Engagement letter',
        'en-GB': 'Letter of engagement',
        'de-DE': 'Mandatsvereinbarung',
        'fr-FR': 'Lettre de mission',
        'es-ES': 'Hoja de encargo',
        'it-IT': "Lettera d'incarico",
        'nl-NL': 'Opdrachtbevestiging',
        'pt-BR': 'Contrato de honorários',
        'ja-JP': '委任契約',
      },
      fields: [
        {
          type: 'signature',
          required: true,
          label: {
            'en-US': 'Sign the engagement letter',
            'en-GB': 'Sign the letter of engagement',
            'de-DE': 'Mandatsvereinbarung unterschreiben',
            'fr-FR': 'Signer la lettre de mission',
            'es-ES': 'Firmar la hoja de encargo',
            'it-IT': "Firmare la lettera d'incarico",
            'nl-NL': 'Opdrachtbevestiging ondertekenen',
            'pt-BR': 'Assinar o contrato de honorários',
            'ja-JP': '委任契約書に署名',
          },
          sample_agreement: {
            'en-US':
              'SAMPLE TEXT, replace it with your own engagement letter: scope of the work, fees and billing, who works on the matter, confidentiality, how either side may end the engagement.',
            'en-GB':
              'SAMPLE TEXT, replace it with your own letter of engagement: scope of the work, fees and billing, who works on the matter, confidentiality, how either side may end the engagement.',
            'de-DE':
              'BEISPIELTEXT, ersetzen Sie ihn durch Ihre eigene Mandatsvereinbarung: Umfang des Mandats, Honorar und Abrechnung, wer das Mandat bearbeitet, Vertraulichkeit, wie beide Seiten das Mandat beenden können.',
            'fr-FR':
              "TEXTE D'EXEMPLE, remplacez-le par votre propre lettre de mission : étendue de la mission, honoraires et facturation, intervenants, confidentialité, conditions de fin de la mission.",
            'es-ES':
              'TEXTO DE EJEMPLO, sustitúyalo por su propia hoja de encargo: alcance del trabajo, honorarios y facturación, quién lleva el asunto, confidencialidad, cómo puede cualquiera de las partes poner fin al encargo.',
            'it-IT':
              "TESTO DI ESEMPIO, lo sostituisca con la sua lettera d'incarico: oggetto dell'incarico, compensi e fatturazione, chi segue la pratica, riservatezza, come ciascuna parte può recedere.",
            'nl-NL':
              'VOORBEELDTEKST, vervang deze door uw eigen opdrachtbevestiging: omvang van de opdracht, honorarium en facturering, wie aan de zaak werkt, geheimhouding, hoe beide partijen de opdracht kunnen beëindigen.',
            'pt-BR':
              'TEXTO DE EXEMPLO, substitua-o pelo seu próprio contrato de honorários: escopo do trabalho, honorários e cobrança, quem atua no caso, confidencialidade, como cada parte pode encerrar o contrato.',
            'ja-JP':
              'サンプル文です。貴事務所の委任契約書に置き換えてください：業務の範囲、報酬と請求、担当者、守秘義務、契約の終了方法。',
          },
        },
      ],
    },
  ],
};
