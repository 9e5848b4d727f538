/**
 * The currencies Stripe charges in (its "supported presentment currencies", lower-case ISO
 * 4217 codes as Stripe writes them), how many decimals each one's smallest unit has, and the
 * smallest charge in each, in that smallest unit. Pure data, free of Node imports: the
 * builder page, the template checks and the send read it (./payment-amount.ts is the rule).
 *
 * Minimums: Stripe's published table (docs.stripe.com/currencies, "Minimum and maximum charge
 * amounts") for usd, aed, aud, bgn, brl, cad, chf, czk, dkk, eur, gbp, hkd, huf, inr, jpy, mxn,
 * myr, nok, nzd, pln, ron, sek, sgd and thb. Stripe checks every other currency by converting
 * the charge to the account's own currency; for those the table holds the equivalent of
 * 0.50 USD at the rates of November 2026 with a tenth's margin for rate moves, rounded up to
 * two significant digits (docs/decisions/0073-payment-amounts-and-currencies.md).
 */

/** Stripe's smallest charge per currency, in the currency's smallest unit (cents, or yen for jpy). */
export const STRIPE_MINIMUM_CHARGES: Readonly<Record<string, number>> = {
  aed: 200,
  afn: 3900,
  all: 5100,
  amd: 22000,
  ang: 99,
  aoa: 51000,
  ars: 80000,
  aud: 50,
  awg: 99,
  azn: 94,
  bam: 94,
  bbd: 110,
  bdt: 6800,
  bgn: 100,
  bhd: 210,
  bif: 1700,
  bmd: 55,
  bnd: 72,
  bob: 390,
  brl: 50,
  bsd: 55,
  bwp: 750,
  byn: 190,
  bzd: 110,
  cad: 50,
  cdf: 160000,
  chf: 50,
  clp: 530,
  cny: 400,
  cop: 230000,
  crc: 29000,
  cve: 5300,
  czk: 1500,
  djf: 98,
  dkk: 250,
  dop: 3500,
  dzd: 7200,
  egp: 2700,
  etb: 8300,
  eur: 50,
  fjd: 130,
  fkp: 44,
  gbp: 30,
  gel: 150,
  gip: 44,
  gmd: 4000,
  gnf: 4800,
  gtq: 430,
  gyd: 12000,
  hkd: 400,
  hnl: 1500,
  htg: 7300,
  huf: 17500,
  idr: 920000,
  ils: 210,
  inr: 50,
  isk: 7700,
  jmd: 8800,
  jod: 390,
  jpy: 50,
  kes: 7100,
  kgs: 4900,
  khr: 230000,
  kmf: 240,
  krw: 800,
  kwd: 170,
  kyd: 46,
  kzt: 29000,
  lak: 1200000,
  lbp: 5000000,
  lkr: 17000,
  lrd: 9900,
  lsl: 990,
  mad: 510,
  mdl: 970,
  mga: 2500,
  mkd: 3000,
  mmk: 120000,
  mnt: 200000,
  mop: 440,
  mur: 2600,
  mvr: 850,
  mwk: 96000,
  mxn: 1000,
  myr: 200,
  mzn: 3600,
  nad: 990,
  ngn: 86000,
  nio: 2100,
  nok: 300,
  npr: 7700,
  nzd: 50,
  omr: 220,
  pab: 55,
  pen: 200,
  pgk: 230,
  php: 3200,
  pkr: 16000,
  pln: 200,
  pyg: 4400,
  qar: 210,
  ron: 200,
  rsd: 5500,
  rub: 4400,
  rwf: 800,
  sar: 210,
  sbd: 470,
  scr: 770,
  sek: 300,
  sgd: 50,
  shp: 44,
  sle: 1300,
  sos: 32000,
  srd: 2100,
  std: 1300000,
  szl: 990,
  thb: 1000,
  tjs: 550,
  tnd: 1700,
  top: 140,
  try: 2400,
  ttd: 380,
  twd: 1800,
  tzs: 140000,
  uah: 2400,
  ugx: 2100,
  usd: 50,
  uyu: 2200,
  uzs: 690000,
  vnd: 15000,
  vuv: 66,
  wst: 160,
  xaf: 320,
  xcd: 150,
  xof: 320,
  xpf: 58,
  yer: 14000,
  zar: 990,
  zmw: 1400,
};

/** Currencies whose smallest unit is the whole unit: amount_cents 500 in jpy is 500 yen. */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Three-decimal currencies: Stripe takes their amounts in thousandths, the last digit 0. */
export const THREE_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/**
 * Amounts Stripe takes only in steps of more than one smallest unit: the three-decimal
 * currencies end in 0, and isk is whole krónur written with two decimals "00".
 */
export const STRIPE_AMOUNT_STEPS: Readonly<Record<string, number>> = {
  bhd: 10,
  jod: 10,
  kwd: 10,
  omr: 10,
  tnd: 10,
  isk: 100,
};

/** Every currency Stripe charges in, lower-case, in alphabetical order. */
export const STRIPE_CURRENCIES: readonly string[] = Object.keys(STRIPE_MINIMUM_CHARGES).sort();

/** Decimals of the currency's smallest unit: 0 (jpy), 3 (kwd) or 2 (the rest). */
export function currencyDecimals(currency: string): 0 | 2 | 3 {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
  return THREE_DECIMAL_CURRENCIES.has(code) ? 3 : 2;
}
