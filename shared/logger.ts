import { pino, type Logger } from 'pino';

export type { Logger };

/** Secrets never reach the logs: API keys, admin tokens, client tokens and PINs are redacted. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-onboarding-pin"]',
        'headers.authorization',
        'secret',
        'token',
      ],
      censor: '[redacted]',
    },
  });
}
