/**
 * One client email as blocks, and its two renderings: the plain-text part and the HTML
 * part (nodemailer sends both as multipart/alternative). The HTML is a single-column
 * table layout with inline styles (what mail clients render alike): the team's logo (or
 * its name) on top, the team's accent colour on the top rule and the buttons (white text
 * on it: the accent keeps 4.5:1 against white), the blocks, then the footer. The team is
 * the page's heading and the content its main landmark (read aloud like a page). Every text
 * that comes from people (names, answers, reasons, messages) is escaped.
 */

export type EmailBlock =
  | { kind: 'paragraph'; text: string }
  /** A heading line above what follows (a step of the copy). */
  | { kind: 'heading'; text: string }
  /** Someone's own words under a label (the member's message, the reopen's reason). */
  | { kind: 'quote'; label: string; text: string }
  /** Label and text pairs (answers and their reasons, a step's answers). */
  | { kind: 'list'; items: { label: string; text: string }[] }
  /** The link the email is about: a button in HTML, `text` (which names the URL) in plain text. */
  | { kind: 'link'; label: string; text: string; url: string };

export interface EmailDocument {
  lang: string;
  subject: string;
  greeting: string;
  blocks: EmailBlock[];
  /** Lines after the blocks (the due date, the PIN). */
  notes: string[];
  /** The footer's lines (the link is personal; who sent it). */
  footer: string[];
  team: { name: string; logoUrl: string | null; accentColor: string | null };
}

export const DEFAULT_ACCENT = '#1d4ed8';
const ACCENT = /^#[0-9a-fA-F]{6}$/;

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Hiragino Sans', 'Noto Sans JP', sans-serif";

export function renderText(email: EmailDocument): string {
  const parts: string[] = [email.greeting];
  for (const block of email.blocks) parts.push(blockText(block));
  if (email.notes.length > 0) parts.push(email.notes.join('\n'));
  parts.push(email.footer.join('\n'));
  return parts.join('\n\n');
}

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case 'paragraph':
    case 'heading':
      return block.text;
    case 'quote':
      return `${block.label}\n${block.text}`;
    case 'list':
      return block.items.map((item) => `- ${item.label}: ${item.text}`).join('\n');
    case 'link':
      return block.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** Escaped, line breaks kept. */
const lines = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

export function renderHtml(email: EmailDocument): string {
  const accent =
    email.team.accentColor && ACCENT.test(email.team.accentColor) ? email.team.accentColor : DEFAULT_ACCENT;
  const body = email.blocks.map((block) => blockHtml(block, accent)).join('\n');
  const notes = email.notes.map((note) => paragraph(lines(note))).join('\n');
  const footer = email.footer.map((line) => `<p style="margin:0 0 8px">${lines(line)}</p>`).join('');
  return `<!doctype html>
<html lang="${escapeHtml(email.lang)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(email.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6">
<main>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-top:4px solid ${accent};border-radius:8px;font-family:${FONT};color:#1f2937">
<tr><td style="padding:24px 32px 8px">${header(email.team, accent)}</td></tr>
<tr><td style="padding:8px 32px 16px;font-size:16px;line-height:1.5">
${paragraph(lines(email.greeting))}
${body}
${notes}
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-size:13px;line-height:1.5;color:#4b5563">${footer}</td></tr>
</table>
</td></tr>
</table>
</main>
</body>
</html>
`;
}

function header(team: EmailDocument['team'], accent: string): string {
  const name = escapeHtml(team.name);
  if (team.logoUrl) {
    return `<h1 style="margin:0"><img src="${escapeHtml(team.logoUrl)}" alt="${name}" height="48" style="display:block;height:48px;width:auto;max-width:240px;border:0"></h1>`;
  }
  return `<h1 style="margin:0;font-size:20px;line-height:1.3;font-weight:700;color:${accent}">${name}</h1>`;
}

const paragraph = (html: string) => `<p style="margin:0 0 16px">${html}</p>`;

function blockHtml(block: EmailBlock, accent: string): string {
  switch (block.kind) {
    case 'paragraph':
      return paragraph(lines(block.text));
    case 'heading':
      return `<h2 style="margin:24px 0 8px;font-size:17px;line-height:1.4">${lines(block.text)}</h2>`;
    case 'quote':
      return `${paragraph(lines(block.label)).replace('margin:0 0 16px', 'margin:0 0 4px')}
<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid ${accent};background:#f9fafb">${lines(block.text)}</blockquote>`;
    case 'list':
      return `<ul style="margin:0 0 16px;padding-left:24px">${block.items
        .map(
          (item) =>
            `<li style="margin:0 0 8px"><strong>${lines(item.label)}</strong>: ${lines(item.text)}</li>`,
        )
        .join('')}</ul>`;
    case 'link': {
      const url = escapeHtml(block.url);
      return `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;background:${accent};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:6px">${escapeHtml(block.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4b5563;word-break:break-all"><a href="${url}" style="color:${accent}">${url}</a></p>`;
    }
  }
}
