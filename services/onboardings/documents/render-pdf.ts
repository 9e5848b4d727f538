import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { humanDateTime } from '../../../shared/i18n/human-date.ts';
import type { SubmissionRecord } from './submission-record.ts';

/**
 * The signed PDF of a completed onboarding, drawn with pdfkit: a page per the copy of the
 * submission (every step and answer, file names, payments, signatures, in the client's
 * language and dates), then the audit page (each signature's evidence and the times of the
 * events, in UTC and the client's timezone). One font, Noto Sans JP (an npm package), reads
 * all nine languages of the form, Japanese included; pdfkit embeds only the glyphs used,
 * so a document stays tens of kilobytes. The document's dates are the completion's, so the
 * same record draws the same bytes.
 */

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** The font files, read once per process. */
function loadFonts() {
  fonts ??= {
    regular: readFileSync(
      require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
    ),
    bold: readFileSync(require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf')),
  };
  return fonts;
}

/** The title of the audit page (the test finds it). */
export const AUDIT_TITLE = 'Audit trail';

const GREY = '#555555';

function heading(doc: PDFKit.PDFDocument, text: string, size: number) {
  doc.font('bold').fontSize(size).fillColor('#000000').text(text);
  doc.moveDown(0.4);
}

function pair(doc: PDFKit.PDFDocument, label: string, value: string) {
  doc.font('bold').fontSize(10).fillColor(GREY).text(label);
  doc
    .font('regular')
    .fontSize(11)
    .fillColor('#000000')
    .text(value || '—');
  doc.moveDown(0.5);
}

function copyPages(doc: PDFKit.PDFDocument, record: SubmissionRecord) {
  const { onboarding, team, client } = record;
  heading(doc, onboarding.snapshot.name, 18);
  doc.font('regular').fontSize(10).fillColor(GREY);
  doc.text(`${team.name} · ${client.name ?? client.email ?? ''}`);
  doc.text(humanDateTime(record.completed_at, record.locale, client.timezone));
  doc.moveDown();
  for (const step of record.steps) {
    heading(doc, step.title, 14);
    for (const answer of step.answers) pair(doc, answer.label, answer.text);
    doc.moveDown(0.5);
  }
}

function auditPage(doc: PDFKit.PDFDocument, record: SubmissionRecord) {
  const zone = record.client.timezone;
  const when = (at: string) => `${at} (UTC) · ${humanDateTime(at, record.locale, zone)}`;
  doc.addPage();
  heading(doc, AUDIT_TITLE, 18);
  pair(doc, 'Onboarding', `${record.onboarding.snapshot.name} (${record.onboarding.id})`);
  pair(doc, 'Team', record.team.name);
  pair(doc, 'Client', [record.client.name, record.client.email].filter(Boolean).join(' · '));
  pair(doc, 'Completed', when(record.completed_at));
  heading(doc, 'Signatures', 14);
  if (record.signatures.length === 0) pair(doc, 'Signatures', 'This form holds no signature.');
  for (const signature of record.signatures) {
    const role = signature.signer_role === 'client' ? 'the client' : 'a team member (countersignature)';
    pair(doc, signature.field_label, `${signature.signer_name} <${signature.signer_email ?? ''}>, ${role}`);
    pair(doc, 'Signed at', when(signature.signed_at));
    pair(doc, 'IP address', signature.ip ?? 'not recorded');
    pair(doc, 'User agent', signature.user_agent ?? 'not recorded');
    pair(doc, 'Consent text', signature.consent_text ?? 'not recorded');
    pair(doc, 'SHA-256 of the answers signed', signature.answers_sha256 ?? 'not recorded');
  }
  heading(doc, 'Events', 14);
  doc.font('regular').fontSize(10).fillColor('#000000');
  for (const line of record.trail) doc.text(`${when(line.at)}  ${line.what}`);
}

/** The PDF's bytes. */
export function renderSubmissionPdf(record: SubmissionRecord): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const at = new Date(record.completed_at);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    lang: record.locale,
    info: {
      Title: record.onboarding.snapshot.name,
      Author: record.team.name,
      Subject: 'Signed copy of a submission with its audit trail',
      CreationDate: at,
      ModDate: at,
    },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  copyPages(doc, record);
  auditPage(doc, record);
  doc.end();
  return done;
}
