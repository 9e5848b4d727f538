/**
 * Whether an Accept header asks for a web page before JSON: a browser that opens a URL
 * sends `text/html,...,*\/*;q=0.8`; API clients send application/json, `*\/*` or nothing.
 * Only a strictly higher quality for HTML than for JSON counts, so `*\/*` (equal for both)
 * stays JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    if (range === 'text/html' || range === 'text/*' || range === '*/*') html = Math.max(html, q);
    if (range === 'application/json' || range === 'application/*' || range === '*/*') {
      json = Math.max(json, q);
    }
  }
  return html > json;
}
