/**
 * Headers of a stored file served for download: the browser saves it (Content-Disposition
 * attachment) and never guesses a more dangerous type from its bytes (nosniff), and
 * should it be opened in place anyway, the sandbox keeps its scripts out of the service's
 * origin.
 */
export function downloadHeaders(fileName: string): Record<string, string> {
  return {
    'Content-Disposition': contentDisposition(fileName),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  };
}

/**
 * `attachment` with the name as RFC 6266 says: `filename*` carries it in UTF-8
 * (RFC 8187 percent-encoding) and `filename` an ASCII stand-in for old clients, with
 * anything outside printable ASCII, quotes, backslashes and percent signs made `_`.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** Percent-encodes all but RFC 8187's attr-char (ALPHA / DIGIT / !#$&+-.^_`|~). */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
