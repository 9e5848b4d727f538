/**
 * `npm run demo`: a real form to open in a browser on a running service
 * (./demo-form.ts); prints the client's link and PIN on stdout.
 *
 *   export ADMIN_TOKEN=$(openssl rand -hex 32)     # at least 32 characters
 *   npm start                                      # in one terminal (same ADMIN_TOKEN)
 *   npm run demo -- --locale de-DE                 # in another
 *
 * Options: --url (default PUBLIC_URL or http://127.0.0.1:3000), --locale (default en-US),
 * --date-format (default the locale's usual one), --pin (default a random 6-digit PIN;
 * --pin none sends without one).
 */
import { parseArgs } from 'node:util';
import { createDemoForm } from './demo-form.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000' },
    locale: { type: 'string', default: 'en-US' },
    'date-format': { type: 'string' },
    pin: { type: 'string' },
  },
});

const adminToken = process.env.ADMIN_TOKEN;
if (!adminToken) {
  process.stderr.write(
    'Set ADMIN_TOKEN to the running service’s ADMIN_TOKEN (at least 32 characters, e.g. from openssl rand -hex 32).\n',
  );
  process.exit(2);
}

createDemoForm({
  url: values.url,
  adminToken,
  locale: values.locale,
  dateFormat: values['date-format'],
  pin: values.pin === 'none' ? null : values.pin,
}).then(
  ({ link, pin }) => {
    process.stdout.write(`Open the client's form: ${link}\n`);
    if (pin) process.stdout.write(`PIN: ${pin}\n`);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
