import { isIP } from 'node:net';
import { z } from 'zod';
import { KeyEncryptionKeyError, parseKeyRing } from '../privacy/key-encryption-key.ts';

/** An unset or blank variable takes its default. */
const blankToUndefined = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** Boolean settings accept on/off, true/false and 1/0 (operator-and-portal-api.md). */
const booleanSetting = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const normalized = blankToUndefined(value)?.toLowerCase();
      if (normalized === undefined) return fallback;
      if (['on', 'true', '1'].includes(normalized)) return true;
      if (['off', 'false', '0'].includes(normalized)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected on/off, true/false or 1/0' });
      return z.NEVER;
    });

const optionalString = z.string().optional().transform(blankToUndefined);

/**
 * An optional URL whose scheme is one of `schemes`. `needsHost`: the URL must parse and
 * name a host (PostgreSQL may leave it out for a Unix socket).
 */
const urlSetting = (schemes: string[], message: string, needsHost = true) =>
  optionalString.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        const url = new URL(value);
        return schemes.includes(url.protocol.slice(0, -1)) && (!needsHost || url.hostname !== '');
      } catch {
        return false;
      }
    },
    { message },
  );

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );

/** The shortest ADMIN_TOKEN accepted: guessing one is then out of reach even unthrottled. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

/** Who is a trusted proxy (fastify's trustProxy): nobody, the nearest N hops, or these addresses and ranges. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names of ranges: 127.0.0.1/8 and ::1, 169.254.0.0/16 and fe80::/10, 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off (the peer is the client); the number of proxy hops in front of the
 * service (`1`: one proxy; `on` and `true` mean 1); or a comma list of the proxies'
 * addresses and CIDR ranges (and loopback, linklocal, uniquelocal). The client IP is the
 * X-Forwarded-For entry appended by the nearest trusted proxy, never one further left
 * (docs/decisions/0001-attempt-limits-and-trusted-proxies.md).
 */
const trustProxySetting = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = blankToUndefined(raw)?.toLowerCase();
    if (value === undefined || value === 'off' || value === 'false' || value === '0') return false;
    if (value === 'on' || value === 'true') return 1;
    if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    if (entries.length > 0 && entries.every(isProxyAddress)) return entries;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message:
        'expected off, the number of proxies in front of the service (1 to 10; on means 1), or a comma list of their addresses or CIDR ranges (e.g. 10.0.0.0/8)',
    });
    return z.NEVER;
  });

/** A whole number of seconds from 1 to one day. */
const positiveSeconds = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = blankToUndefined(raw);
      if (value === undefined) return fallback;
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 86_400) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected whole seconds from 1 to 86400' });
        return z.NEVER;
      }
      return Number(value);
    });

/** A whole number of days from 1 to 3650 (ten years): how long finished operational rows are kept. */
const retentionDays = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = blankToUndefined(raw);
      if (value === undefined) return fallback;
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 3650) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected whole days from 1 to 3650' });
        return z.NEVER;
      }
      return Number(value);
    });

const settingsSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = blankToUndefined(raw);
      if (value === undefined) return 3000;
      if (!/^\d+$/.test(value) || Number(value) > 65535) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected a port number from 0 to 65535' });
        return z.NEVER;
      }
      return Number(value);
    }),
  HOST: optionalString.transform((value) => value ?? '127.0.0.1'),
  DATABASE_URL: urlSetting(['postgres', 'postgresql'], 'expected a postgres:// or postgresql:// URL', false),
  // A connection string may list several cluster nodes (esdb://a:2113,b:2113), which URL does not parse.
  EVENTSTORE_URL: optionalString.refine(
    (value) => value === undefined || /^(esdb|kurrentdb|kdb)(\+discover)?:\/\/[^\s/?#]+/.test(value),
    { message: 'expected an esdb:// URL' },
  ),
  KAFKA_BROKERS: commaList.superRefine((brokers, ctx) => {
    const bad = brokers.filter((broker) => !/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/.test(broker));
    if (bad.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `expected comma-separated host:port brokers (not ${bad.join(', ')})`,
      });
    }
  }),
  // What this process runs (shared/config/service-role.ts): every part, the HTTP API only, or the background work only.
  SERVICE_ROLE: optionalString
    .transform((value) => value?.toLowerCase() ?? 'all')
    .pipe(z.enum(['all', 'api', 'worker'], { message: 'expected all, api or worker' })),
  // Rate-limit counters shared by every API instance (shared/rate-limit/redis-store.ts); memory when unset.
  REDIS_URL: urlSetting(['redis', 'rediss'], 'expected a redis:// or rediss:// URL'),
  // Bearer token for GET /metrics; unset: /metrics answers only requests from loopback.
  METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: 'expected at least 16 characters',
  }),
  // /readyz answers 503 when a projection or the relay is this many seconds behind the log.
  READY_MAX_LAG_SECONDS: positiveSeconds(120),
  // /healthz answers 503 once the database has been out of reach this many seconds (shared/db/database-health.ts).
  DATABASE_LOST_UNHEALTHY_SECONDS: positiveSeconds(20),
  SMTP_URL: urlSetting(['smtp', 'smtps'], 'expected an smtp:// or smtps:// URL'),
  // Bearer token of the operator API; long enough that it cannot be guessed (guesses are throttled too).
  ADMIN_TOKEN: optionalString.refine(
    (value) => value === undefined || value.length >= ADMIN_TOKEN_MIN_LENGTH,
    {
      message: `expected at least ${ADMIN_TOKEN_MIN_LENGTH} characters (make one with: openssl rand -hex 32)`,
    },
  ),
  TRUST_PROXY: trustProxySetting,
  RATE_LIMITS: booleanSetting(true),
  HOOK_TARGET_ALLOWLIST: commaList.transform((hosts) => hosts.map((host) => host.toLowerCase())),
  TEST_CLOCK: booleanSetting(false),
  PUBLIC_URL: urlSetting(['http', 'https'], 'expected an http:// or https:// URL'),
  // Seals the per-client personal-data keys (shared/privacy/key-encryption-key.ts): "KEY" or
  // "id:KEY,id:KEY" with the current key first; unset, see shared/privacy/kek-source.ts.
  PERSONAL_DATA_KEK: optionalString.transform((value, ctx) => {
    if (value === undefined) return undefined;
    try {
      return parseKeyRing(value);
    } catch (error) {
      if (!(error instanceof KeyEncryptionKeyError)) throw error;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: error.message });
      return z.NEVER;
    }
  }),
  DATA_DIR: optionalString.transform((value) => value ?? './.data'),
  // Retention of finished operational rows (services/app/retention-purges.ts; docs/operations.md, Settings).
  // The delivery log (hook and signed webhook deliveries with their attempts and bodies) and
  // its replay stay available this long after a delivery finished.
  DELIVERY_LOG_RETENTION_DAYS: retentionDays(30),
  // Consumer de-duplication rows; longer than any redelivery (Kafka keeps 7 days by default).
  PROCESSED_EVENTS_RETENTION_DAYS: retentionDays(30),
  // Finished automation runs (their request bodies are already cleared when they finish).
  AUTOMATION_RUN_RETENTION_DAYS: retentionDays(30),
  // Fired and cancelled onboarding timers of onboardings that are no longer sent or in progress.
  TIMER_RETENTION_DAYS: retentionDays(30),
  // Sent and failed mail (and, without SMTP_URL, the recorded mail).
  MAIL_RETENTION_DAYS: retentionDays(30),
  // Payments through Stripe (services/payments/): the service's own secret key reaches the teams'
  // connected accounts; unset, payments are not collected online (a team or operator records them).
  STRIPE_SECRET_KEY: optionalString.refine(
    (value) => value === undefined || /^(sk|rk)_[A-Za-z0-9_]+$/.test(value),
    {
      message: 'expected a Stripe secret key (sk_live_..., sk_test_... or a restricted rk_...)',
    },
  ),
  // The signing secret of the service's Stripe webhook endpoint (POST /webhooks/stripe).
  STRIPE_WEBHOOK_SECRET: optionalString.refine((value) => value === undefined || value.startsWith('whsec_'), {
    message: 'expected a Stripe webhook signing secret (whsec_...)',
  }),
  // Base URL of the Stripe API; a stripe-mock server in tests. Unset: Stripe's own API.
  STRIPE_API_URL: urlSetting(['http', 'https'], 'expected an http:// or https:// URL'),
  LOG_LEVEL: optionalString
    .transform((value) => value?.toLowerCase() ?? 'info')
    .pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
});

export type Settings = Omit<z.output<typeof settingsSchema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export class SettingsError extends Error {}

/** Settings whose refused value is never echoed. */
const SECRET_SETTINGS = new Set([
  'PERSONAL_DATA_KEK',
  'ADMIN_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/** A refused value is echoed in the message, without the password of a URL. */
function shown(name: string, value: string | undefined): string {
  if (SECRET_SETTINGS.has(name)) return '(hidden)';
  return JSON.stringify((value ?? '').replace(/(\/\/[^:/@\s]*:)[^@/\s]*@/, '$1***@'));
}

/** Reads and validates every setting once; a bad value names its variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${shown(name, env[name])}: ${issue.message}`;
    });
    throw new SettingsError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const settings = parsed.data;
  if (settings.STRIPE_SECRET_KEY !== undefined && settings.STRIPE_WEBHOOK_SECRET === undefined) {
    throw new SettingsError(
      'Invalid settings:\n  STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (the signing secret of POST /webhooks/stripe)',
    );
  }
  // An IPv6 bind address needs brackets inside a URL.
  const host = settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST;
  return {
    ...settings,
    PUBLIC_URL: (settings.PUBLIC_URL ?? `http://${host}:${settings.PORT}`).replace(/\/+$/, ''),
  };
}
