import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';

/**
 * The content type of an uploaded file, read from its bytes (the file-type package's magic
 * numbers), never from what the browser claims: a renamed executable stays what it is.
 * Bytes without a known signature are text/plain only when they are valid UTF-8 without
 * a NUL byte (plain text, CSV); anything else is application/octet-stream.
 */
export async function sniffContentType(content: Uint8Array): Promise<string> {
  const found = await fileTypeFromBuffer(content);
  if (found) return found.mime;
  return isPlainText(content) ? 'text/plain' : 'application/octet-stream';
}

/** Valid UTF-8 without NUL, checked in place (no decoded copy of a 10 MiB file on the event loop). */
function isPlainText(content: Uint8Array): boolean {
  return !content.includes(0) && isUtf8(content);
}
