/**
 * The content security policy of the service's pages (the client's form page and /docs):
 * scripts, styles, images, fonts and calls only from the service's own origin, no plugins,
 * no <base>, forms only to this origin, no framing. A page names the other style and image
 * sources it needs (a style hash, data: or blob: images).
 */
export function sameOriginPolicy(extra: { style?: string[]; img?: string[] }): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...(extra.style ?? [])].join(' '),
    ["img-src 'self'", ...(extra.img ?? [])].join(' '),
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
