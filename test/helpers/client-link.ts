/**
 * Client links as emails and the operator API write them: the form page
 * `${PUBLIC_URL}/f/<token>` (services/onboardings/invite-email.ts).
 */

const LINK_TOKEN = /\/f\/([0-9a-f]{64})\b/;

/** The form page of a token under `publicUrl`. */
export const formLink = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/f/${token}`;

/** The client token of the first form link in `text`; undefined when there is none. */
export const tokenFromLink = (text: string | undefined | null): string | undefined =>
  LINK_TOKEN.exec(text ?? '')?.[1];
