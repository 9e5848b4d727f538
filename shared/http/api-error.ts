/**
 * Error bodies as the spec's Errors section gives them. Two shapes:
 * - full: `error`, `code`, `message`, `retryable`, `request_id` (+ header X-Request-Id),
 *   used by key checks and the onboarding endpoints;
 * - text-only: `error` alone (most validation and not-found errors of clients,
 *   templates, responses, events, /me and hook endpoints).
 * Some codes carry extra fields (`details`, `requires_force`) or drop fields (429, 422).
 */
export type ErrorShape = 'full' | 'text' | 'code_only';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly options: {
      code?: string;
      shape?: ErrorShape;
      retryable?: boolean;
      /** Extra fields merged into the body (details, requires_force). */
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(text);
    this.name = 'ApiError';
  }

  body(requestId: string): Record<string, unknown> {
    const { code, shape = code ? 'full' : 'text', retryable = this.status >= 500, extra } = this.options;
    if (shape === 'text') return { error: this.text, ...extra };
    if (shape === 'code_only') return { error: this.text, code, ...extra };
    return { error: this.text, code, message: this.text, retryable, request_id: requestId, ...extra };
  }
}

/** A full error body with a code (key checks, onboarding endpoints). */
export const codedError = (
  status: number,
  code: string,
  text: string,
  extra?: Record<string, unknown>,
  retryable = false,
) => new ApiError(status, text, { code, shape: 'full', extra, retryable });

/** An `error`-only body, matched by clients on status and text. */
export const textError = (status: number, text: string) => new ApiError(status, text, { shape: 'text' });
