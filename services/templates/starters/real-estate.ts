import { ABOUT_YOU, DOCUMENT_FILES, EMAIL, FULL_NAME, PHONE } from './common-texts.ts';
import type { Starter } from './starter-types.ts';

/** An estate agent's buyer or tenant: what they look for, their ID and proof of funds. */
export const realEstate: Starter = {
  id: '6f1c2a10-3b1e-4c55-9a31-0a7c1d5e0005',
  name: {
    'en-US': 'Buyer and renter intake',
    'en-GB': 'Buyer and tenant intake',
    'de-DE': 'Aufnahme von Kauf- und Mietinteressenten',
    'fr-FR': 'Dossier acquéreur ou locataire',
    'es-ES': 'Alta de comprador o inquilino',
    'it-IT': 'Scheda acquirente o inquilino',
    'nl-NL': 'Intake koper of huurder',
    'pt-BR': 'Cadastro de comprador ou inquilino',
    'ja-JP': '購入・賃貸希望者の受付',
  },
  description: {
    'en-US': 'Learns what a buyer or renter is looking for and collects an ID document and proof of funds.',
    'en-GB':
      'Learns what a buyer or tenant is looking for and collects an identity document and proof of funds.',
    'de-DE':
      'Erfasst, was Kauf- oder Mietinteressenten suchen, und sammelt Ausweis und Finanzierungsnachweis.',
    'fr-FR':
      "Recueille ce que recherche l'acquéreur ou le locataire, sa pièce d'identité et un justificatif de ressources.",
    'es-ES':
      'Recoge lo que busca el comprador o inquilino, su documento de identidad y un justificante de solvencia.',
    'it-IT':
      "Raccoglie cosa cerca l'acquirente o l'inquilino, il documento d'identità e una prova della disponibilità economica.",
    'nl-NL':
      'Brengt in kaart wat een koper of huurder zoekt en verzamelt een identiteitsbewijs en een financieringsbewijs.',
    'pt-BR':
      'Levanta o que o comprador ou inquilino procura e coleta um documento de identidade e a comprovação de renda ou recursos.',
    'ja-JP': '購入・賃貸希望者の希望条件を伺い、本人確認書類と資金証明を集めます。',
  },
  vertical: {
    'en-US': 'Real estate',
    'en-GB': 'Estate agency',
    'de-DE': 'Immobilien',
    'fr-FR': 'Immobilier',
    'es-ES': 'Inmobiliaria',
    'it-IT': 'Immobiliare',
    'nl-NL': 'Makelaardij',
    'pt-BR': 'Imobiliária',
    'ja-JP': '不動産',
  },
  steps: [
    {
      title: ABOUT_YOU,
      fields: [
        FULL_NAME,
        EMAIL,
        PHONE,
        {
          type: 'single_choice',
          required: true,
          label: {
            'en-US': 'You want to',
            'en-GB': 'You want to',
            'de-DE': 'Sie möchten',
            'fr-FR': 'Vous souhaitez',
            'es-ES': 'Quiere',
            'it-IT': 'Desidera',
            'nl-NL': 'U wilt',
            'pt-BR': 'Você quer',
            'ja-JP': 'ご希望',
          },
          options: [
            {
              value: 'buy',
              label: {
                'en-US': 'Buy',
                'en-GB': 'Buy',
                'de-DE': 'Kaufen',
                'fr-FR': 'Acheter',
                'es-ES': 'Comprar',
                'it-IT': 'Acquistare',
                'nl-NL': 'Kopen',
                'pt-BR': 'Comprar',
                'ja-JP': '購入',
              },
            },
            {
              value: 'rent',
              label: {
                'en-US': 'Rent',
                'en-GB': 'Rent',
                'de-DE': 'Mieten',
                'fr-FR': 'Louer',
                'es-ES': 'Alquilar',
                'it-IT': 'Affittare',
                'nl-NL': 'Huren',
                'pt-BR': 'Alugar',
                'ja-JP': '賃貸',
              },
            },
          ],
        },
      ],
    },
    {
      title: {
        'en-US': 'What you are looking for',
        'en-GB': 'What you are looking for',
        'de-DE': 'Was Sie suchen',
        'fr-FR': 'Ce que vous recherchez',
        'es-ES': 'Qué busca',
        'it-IT': 'Cosa cerca',
        'nl-NL': 'Wat u zoekt',
        'pt-BR': 'O que você procura',
        'ja-JP': 'ご希望の条件',
      },
      fields: [
        {
          type: 'multiple_choice',
          label: {
            'en-US': 'Type of home',
            'en-GB': 'Type of property',
            'de-DE': 'Art der Immobilie',
            'fr-FR': 'Type de bien',
            'es-ES': 'Tipo de vivienda',
            'it-IT': 'Tipo di immobile',
            'nl-NL': 'Soort woning',
            'pt-BR': 'Tipo de imóvel',
            'ja-JP': '物件の種類',
          },
          options: [
            {
              value: 'apartment',
              label: {
                'en-US': 'Apartment',
                'en-GB': 'Flat',
                'de-DE': 'Wohnung',
                'fr-FR': 'Appartement',
                'es-ES': 'Piso',
                'it-IT': 'Appartamento',
                'nl-NL': 'Appartement',
                'pt-BR': 'Apartamento',
                'ja-JP': 'マンション・アパート',
              },
            },
            {
              value: 'house',
              label: {
                'en-US': 'House',
                'en-GB': 'House',
                'de-DE': 'Haus',
                'fr-FR': 'Maison',
                'es-ES': 'Casa',
                'it-IT': 'Casa indipendente',
                'nl-NL': 'Huis',
                'pt-BR': 'Casa',
                'ja-JP': '一戸建て',
              },
            },
            {
              value: 'land',
              label: {
                'en-US': 'Land',
                'en-GB': 'Land',
                'de-DE': 'Grundstück',
                'fr-FR': 'Terrain',
                'es-ES': 'Terreno',
                'it-IT': 'Terreno',
                'nl-NL': 'Bouwgrond',
                'pt-BR': 'Terreno',
                'ja-JP': '土地',
              },
            },
            {
              value: 'commercial',
              label: {
                'en-US': 'Commercial space',
                'en-GB': 'Commercial premises',
                'de-DE': 'Gewerbefläche',
                'fr-FR': 'Local commercial',
                'es-ES': 'Local comercial',
                'it-IT': 'Locale commerciale',
                'nl-NL': 'Bedrijfsruimte',
                'pt-BR': 'Imóvel comercial',
                'ja-JP': '事業用物件',
              },
            },
          ],
        },
        {
          type: 'long_text',
          label: {
            'en-US': 'Areas you would like to live in',
            'en-GB': 'Areas you would like to live in',
            'de-DE': 'Gewünschte Lage',
            'fr-FR': 'Quartiers ou villes souhaités',
            'es-ES': 'Zonas donde le gustaría vivir',
            'it-IT': 'Zone in cui vorrebbe vivere',
            'nl-NL': 'Gewenste buurten of plaatsen',
            'pt-BR': 'Bairros ou regiões de interesse',
            'ja-JP': '希望エリア',
          },
        },
        {
          type: 'number',
          label: {
            'en-US': 'Bedrooms',
            'en-GB': 'Bedrooms',
            'de-DE': 'Schlafzimmer',
            'fr-FR': 'Chambres',
            'es-ES': 'Dormitorios',
            'it-IT': 'Camere da letto',
            'nl-NL': 'Slaapkamers',
            'pt-BR': 'Quartos',
            'ja-JP': '寝室の数',
          },
          config: { min: 0, max: 20, step: 1 },
        },
        {
          type: 'number',
          label: {
            'en-US': 'Maximum budget',
            'en-GB': 'Maximum budget',
            'de-DE': 'Maximales Budget',
            'fr-FR': 'Budget maximum',
            'es-ES': 'Presupuesto máximo',
            'it-IT': 'Budget massimo',
            'nl-NL': 'Maximaal budget',
            'pt-BR': 'Orçamento máximo',
            'ja-JP': 'ご予算の上限',
          },
          help_text: {
            'en-US': 'The purchase price, or the monthly rent, in your local currency.',
            'en-GB': 'The purchase price, or the monthly rent, in your local currency.',
            'de-DE': 'Der Kaufpreis oder die Monatsmiete in Ihrer Landeswährung.',
            'fr-FR': "Le prix d'achat ou le loyer mensuel, dans votre monnaie.",
            'es-ES': 'El precio de compra o el alquiler mensual, en su moneda.',
            'it-IT': "Il prezzo d'acquisto o l'affitto mensile, nella sua valuta.",
            'nl-NL': 'De koopprijs of de maandhuur, in uw eigen valuta.',
            'pt-BR': 'O valor de compra ou o aluguel mensal, na sua moeda.',
            'ja-JP': '購入価格または月額賃料を、お住まいの国の通貨でご記入ください。',
          },
          config: { min: 0, step: 1 },
        },
        {
          type: 'date',
          label: {
            'en-US': 'When you would like to move in',
            'en-GB': 'When you would like to move in',
            'de-DE': 'Gewünschter Einzugstermin',
            'fr-FR': "Date d'emménagement souhaitée",
            'es-ES': 'Cuándo le gustaría mudarse',
            'it-IT': 'Quando vorrebbe trasferirsi',
            'nl-NL': 'Gewenste verhuisdatum',
            'pt-BR': 'Quando gostaria de se mudar',
            'ja-JP': '入居希望日',
          },
        },
      ],
    },
    {
      title: {
        'en-US': 'Documents',
        'en-GB': 'Documents',
        'de-DE': 'Unterlagen',
        'fr-FR': 'Justificatifs',
        'es-ES': 'Documentación',
        'it-IT': 'Documenti',
        'nl-NL': 'Documenten',
        'pt-BR': 'Documentos',
        'ja-JP': '書類',
      },
      fields: [
        {
          type: 'file_upload',
          required: true,
          label: {
            'en-US': 'Photo ID',
            'en-GB': 'Photo ID',
            'de-DE': 'Ausweisdokument',
            'fr-FR': "Pièce d'identité",
            'es-ES': 'Documento de identidad',
            'it-IT': "Documento d'identità",
            'nl-NL': 'Identiteitsbewijs',
            'pt-BR': 'Documento de identidade com foto',
            'ja-JP': '本人確認書類',
          },
          help_text: {
            'en-US': "A passport or driver's license, front and back.",
            'en-GB': 'A passport or driving licence, front and back.',
            'de-DE': 'Personalausweis oder Reisepass, Vorder- und Rückseite.',
            'fr-FR': "Carte d'identité ou passeport, recto et verso.",
            'es-ES': 'DNI, NIE o pasaporte, por ambas caras.',
            'it-IT': "Carta d'identità o passaporto, fronte e retro.",
            'nl-NL': 'Paspoort of identiteitskaart, voor- en achterkant.',
            'pt-BR': 'RG, CNH ou passaporte, frente e verso.',
            'ja-JP': '運転免許証またはパスポート（表と裏）。',
          },
          config: { accept: DOCUMENT_FILES, max_files: 2 },
        },
        {
          type: 'file_upload',
          label: {
            'en-US': 'Proof of funds',
            'en-GB': 'Proof of funds',
            'de-DE': 'Finanzierungsnachweis',
            'fr-FR': 'Justificatif de ressources',
            'es-ES': 'Justificante de solvencia',
            'it-IT': 'Prova della disponibilità economica',
            'nl-NL': 'Financieringsbewijs',
            'pt-BR': 'Comprovação de renda ou recursos',
            'ja-JP': '資金証明',
          },
          help_text: {
            'en-US':
              'Buying: a bank statement or a mortgage pre-approval. Renting: recent pay stubs or an employment letter.',
            'en-GB':
              'Buying: a bank statement or a mortgage agreement in principle. Renting: recent payslips or an employment letter.',
            'de-DE':
              'Kauf: Kontoauszug oder Finanzierungsbestätigung der Bank. Miete: aktuelle Gehaltsabrechnungen oder Arbeitsvertrag.',
            'fr-FR':
              "Achat : relevé bancaire ou accord de principe de prêt. Location : derniers bulletins de salaire ou attestation d'employeur.",
            'es-ES':
              'Compra: extracto bancario o preaprobación de hipoteca. Alquiler: nóminas recientes o contrato de trabajo.',
            'it-IT':
              'Acquisto: estratto conto o pre-delibera del mutuo. Affitto: buste paga recenti o contratto di lavoro.',
            'nl-NL':
              'Kopen: bankafschrift of hypotheekofferte. Huren: recente loonstroken of een werkgeversverklaring.',
            'pt-BR':
              'Compra: extrato bancário ou pré-aprovação de financiamento. Aluguel: holerites recentes ou declaração do empregador.',
            'ja-JP':
              '購入の場合：預金残高証明または住宅ローンの事前審査結果。賃貸の場合：最近の給与明細または在職証明書。',
          },
          config: { accept: DOCUMENT_FILES, max_files: 5 },
        },
        {
          type: 'checkbox',
          required: true,
          label: {
            'en-US': 'Use of your documents',
            'en-GB': 'Use of your documents',
            'de-DE': 'Verwendung Ihrer Unterlagen',
            'fr-FR': 'Utilisation de vos documents',
            'es-ES': 'Uso de sus documentos',
            'it-IT': 'Uso dei suoi documenti',
            'nl-NL': 'Gebruik van uw documenten',
            'pt-BR': 'Uso dos seus documentos',
            'ja-JP': '書類の利用について',
          },
          statement: {
            'en-US':
              'I agree that you use these documents to verify my identity and share them with the seller or landlord for my application.',
            'en-GB':
              'I agree that you may use these documents to verify my identity and share them with the seller or landlord for my application.',
            'de-DE':
              'Ich bin einverstanden, dass Sie diese Unterlagen zur Prüfung meiner Identität verwenden und für meine Bewerbung an Verkäufer oder Vermieter weitergeben.',
            'fr-FR':
              "J'accepte que vous utilisiez ces documents pour vérifier mon identité et les transmettiez au vendeur ou au bailleur pour ma candidature.",
            'es-ES':
              'Acepto que usen estos documentos para verificar mi identidad y los compartan con el vendedor o el propietario para mi solicitud.',
            'it-IT':
              'Acconsento che usiate questi documenti per verificare la mia identità e li condividiate con il venditore o il locatore per la mia richiesta.',
            'nl-NL':
              'Ik ga ermee akkoord dat u deze documenten gebruikt om mijn identiteit te controleren en ze voor mijn aanvraag deelt met de verkoper of verhuurder.',
            'pt-BR':
              'Concordo que vocês usem estes documentos para verificar minha identidade e os compartilhem com o vendedor ou locador para a minha proposta.',
            'ja-JP':
              '本人確認のためにこれらの書類を利用し、申込みのために売主または貸主へ提供することに同意します。',
          },
        },
      ],
    },
  ],
};
