import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { errorWithoutRowData } from './error-without-row-data.ts';
import { requestSerializer } from './url-secrets.ts';

export type { Logger };

/**
 * Secrets never reach the logs: API keys, the operator token, client tokens and PINs are redacted.
 * Database errors are logged without the row values they quote (error-without-row-data.ts).
 * Capability tokens in URL paths are written as `[secret]` in the request Fastify logs
 * (url-secrets.ts).
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options: LoggerOptions = {
    level,
    serializers: { err: errorWithoutRowData, req: requestSerializer },
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
  };
  return pino(options, destination);
}
