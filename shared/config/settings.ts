import { z } from 'zod';

/** Boolean settings accept on/off, true/false and 1/0 (operator-and-portal-api.md). */
const booleanSetting = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const normalized = value.trim().toLowerCase();
      if (['on', 'true', '1'].includes(normalized)) return true;
      if (['off', 'false', '0'].includes(normalized)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected on/off, true/false or 1/0' });
      return z.NEVER;
    });

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );

const settingsSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 3000;
      if (!/^\d+$/.test(value) || Number(value) > 65535) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected a port number from 0 to 65535' });
        return z.NEVER;
      }
      return Number(value);
    }),
  HOST: z.string().optional().default('127.0.0.1'),
  DATABASE_URL: optionalString.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
    message: 'expected a postgres:// or postgresql:// URL',
  }),
  EVENTSTORE_URL: optionalString.refine(
    (value) => value === undefined || /^(esdb|esdb\+discover|kurrentdb|kdb):\/\//.test(value),
    { message: 'expected an esdb:// URL' },
  ),
  KAFKA_BROKERS: commaList,
  SMTP_URL: optionalString.refine((value) => value === undefined || /^smtps?:\/\//.test(value), {
    message: 'expected an smtp:// or smtps:// URL',
  }),
  ADMIN_TOKEN: optionalString,
  TRUST_PROXY: booleanSetting(false),
  RATE_LIMITS: booleanSetting(true),
  HOOK_TARGET_ALLOWLIST: commaList.transform((hosts) => hosts.map((host) => host.toLowerCase())),
  TEST_CLOCK: booleanSetting(false),
  PUBLIC_URL: optionalString.refine((value) => value === undefined || /^https?:\/\//.test(value), {
    message: 'expected an http:// or https:// URL',
  }),
  DATA_DIR: z.string().optional().default('./.data'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .default('info'),
});

export type Settings = Omit<z.output<typeof settingsSchema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export class SettingsError extends Error {}

/** Reads and validates every setting once; a bad value names its variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new SettingsError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const settings = parsed.data;
  return {
    ...settings,
    PUBLIC_URL: (settings.PUBLIC_URL ?? `http://${settings.HOST}:${settings.PORT}`).replace(/\/$/, ''),
  };
}
