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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainText(content: Uint8Array): boolean {
  if (content.includes(0)) return false;
  try {
    strictUtf8.decode(content);
    return true;
  } catch {
    return false;
  }
}
