import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from a name with SHA-256: the same name gives the same
 * id, so an id made while handling an event is the same on a redelivery of that event.
 */
export function derivedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
