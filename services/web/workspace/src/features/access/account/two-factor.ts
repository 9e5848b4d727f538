import { renderSVG } from 'uqr';

/** Pure: the QR code of an otpauth URI as SVG markup (uqr; no scripts, no inline styles). */
export const qrSvg = (uri: string): string => renderSVG(uri, { border: 2 });

/** Pure: a key for manual entry in groups of four (authenticator apps ignore the spaces). */
export const groupedKey = (secret: string): string =>
  secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

/** Pure: a code as typed is six digits (spaces allowed between them). */
export const sixDigits = (code: string): string | null => {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};
