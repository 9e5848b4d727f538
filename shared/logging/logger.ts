import { pino, type DestinationStream, type Logger } from 'pino';
import { errorWithoutRowData } from './error-without-row-data.ts';
import { requestSerializer } from './url-secrets.ts';

export type { Logger };

/**
 * Secrets never reach the logs: API keys, the operator token, client tokens and PINs are redacted.
 * Database errors are logged without the row values they quote (error-without-row-data.ts).
 * Capability tokens in URL paths are written as `[secret]` in the request Fastify logs
 * (url-secrets.ts). Lines go to stdout, or to `destination` when given (tests read them).
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    serializers: { err: errorWithoutRowData, req: requestSerializer },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-onboarding-pin"]',
        'headers.authorization',
        // Headers logged inside other objects (the multipart parser's options at trace level).
        '*.headers.authorization',
        '*.headers["x-onboarding-pin"]',
        'secret',
        'token',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
