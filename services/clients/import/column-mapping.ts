/*
 * Which column of the file holds which detail of a client. The preview guesses it from the
 * header line; the member may change it before confirming.
 */

export const IMPORT_FIELDS = ['name', 'email', 'company', 'phone', 'locale'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Column index per field; null: the file has no such column (or the member chose none). */
export type ColumnMapping = Record<ImportField, number | null>;

/** Header words (lower case, without spaces, dashes or underscores) that name each field. */
const HEADER_WORDS: Record<ImportField, string[]> = {
  name: [
    'name',
    'fullname',
    'clientname',
    'contact',
    'contactname',
    'customer',
    'nom',
    'nombre',
    'nome',
    'naam',
    '名前',
    '氏名',
  ],
  email: [
    'email',
    'emailaddress',
    'mail',
    'e-mail',
    'courriel',
    'correo',
    'correoelectronico',
    'emailadresse',
    'メール',
    'メールアドレス',
  ],
  company: [
    'company',
    'organisation',
    'organization',
    'business',
    'firm',
    'firma',
    'unternehmen',
    'société',
    'societe',
    'empresa',
    'azienda',
    'bedrijf',
    '会社',
    '会社名',
  ],
  phone: [
    'phone',
    'telephone',
    'tel',
    'mobile',
    'cell',
    'phonenumber',
    'telefon',
    'téléphone',
    'telefono',
    'teléfono',
    'telefoon',
    'telefone',
    '電話',
    '電話番号',
  ],
  locale: ['locale', 'language', 'lang', 'sprache', 'langue', 'idioma', 'lingua', 'taal', '言語'],
};

const squeezed = (header: string) => header.toLowerCase().replace(/[\s_\-.]/g, '');

/**
 * The guess: each field takes the first column whose header is one of its words, else the
 * first whose header contains one (a column is given to one field at most).
 */
export function guessMapping(headers: string[]): ColumnMapping {
  const keys = headers.map(squeezed);
  const taken = new Set<number>();
  const mapping = Object.fromEntries(IMPORT_FIELDS.map((field) => [field, null])) as ColumnMapping;
  const pick = (field: ImportField, matches: (key: string, word: string) => boolean) => {
    if (mapping[field] !== null) return;
    const index = keys.findIndex(
      (key, at) => !taken.has(at) && HEADER_WORDS[field].some((word) => matches(key, squeezed(word))),
    );
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  };
  for (const field of IMPORT_FIELDS) pick(field, (key, word) => key === word);
  for (const field of IMPORT_FIELDS) pick(field, (key, word) => word.length > 2 && key.includes(word));
  return mapping;
}
