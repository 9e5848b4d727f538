/**
 * The page's client of the portal API (/portal/v1/onboardings/:token). The PIN is sent
 * once, to POST .../session, which answers the link session as an HttpOnly cookie; every
 * later call carries that cookie (same origin) and no PIN, and the page keeps the PIN
 * nowhere. A refusal becomes an ApiError the screens turn into human words (the page
 * never shows a JSON body).
 */
import type { AnswerProblem } from '../../../templates/contract/field-catalogue.ts';

export type LinkState =
  'open' | 'pin_required' | 'pin_locked' | 'completed' | 'expired' | 'cancelled' | 'inactive';

export interface FaceTeam {
  display_name: string;
  logo_url: string | null;
  accent_color: string | null;
}

export interface FaceClient {
  locale: string;
  date_format: string;
  timezone: string;
}

export interface Face {
  /** `session`: this browser holds a live link session of the link (the form opens without the PIN). */
  link: { state: LinkState; retry_after_seconds: number | null; session?: boolean };
  team: FaceTeam | null;
  client: FaceClient | null;
}

export interface PortalField {
  id: string;
  type: string;
  label: string;
  sort_order: number;
  is_required: boolean;
  config: Record<string, unknown> | null;
  conditional_rules?: unknown;
  translations?: unknown;
}

export interface PortalStep {
  id: string;
  title: string;
  sort_order: number;
  is_optional: boolean;
  conditional_rules?: unknown;
  translations?: unknown;
  fields: PortalField[];
}

export interface PortalSnapshot {
  name?: string;
  description?: string | null;
  translations?: unknown;
  settings?: Record<string, unknown>;
  steps: PortalStep[];
}

export interface PortalResponse {
  id: string;
  field_id: string;
  value: unknown;
  status: string;
  rejection_reason: string | null;
  created_at: string;
}

export interface PortalFile {
  id: string;
  field_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string;
}

export interface PortalSignature {
  id: string;
  field_id: string;
  signer_name: string;
  signer_email?: string;
  signed_at: string;
}

/** The `onboarding` of GET /portal/v1/onboardings/:token (and of a step submit). */
export interface PortalOnboarding {
  id: string;
  status: string;
  progress_pct: number;
  due_date: string | null;
  template_snapshot: PortalSnapshot;
  responses: PortalResponse[];
  files: PortalFile[];
  signatures: PortalSignature[];
  submitted_step_ids: string[];
  /** Payment fields whose payment the team recorded. */
  paid_field_ids: string[];
  /** The team's latest review of each reviewed answer (./sent-back.ts). */
  reviews?: {
    field_id: string;
    status: 'approved' | 'rejected' | 'changes_requested';
    reason: string | null;
  }[];
}

export interface OpenAnswer {
  onboarding: PortalOnboarding;
  team: FaceTeam | null;
  client: FaceClient | null;
}

/** What the server says about an answer it refused (400 invalid_body). */
export interface ProblemDetails {
  field_id?: string;
  step_id?: string;
  problem?: AnswerProblem;
  problems?: { field_id: string; problem: AnswerProblem }[];
}

/** A refused or failed call. status 0 means the request never got an answer (offline, network). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details: ProblemDetails | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status} ${code}`);
    this.name = 'ApiError';
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

type ErrorBody = { code?: unknown; details?: unknown };

/** The client token of a page URL /f/<token>; null for any other path. */
export function tokenFromPath(pathname: string): string | null {
  const match = /^\/f\/([^/?#]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

export const PIN_HEADER = 'X-Onboarding-Pin';

function retryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function errorFrom(response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let details: ProblemDetails | null = null;
  try {
    const body = (await response.json()) as ErrorBody;
    if (typeof body.code === 'string') code = body.code;
    if (body.details && typeof body.details === 'object') details = body.details as ProblemDetails;
  } catch {
    // A body that is not JSON (a proxy's error page) keeps the status code alone.
  }
  return new ApiError(response.status, code, details, retryAfter(response.headers.get('Retry-After')));
}

export class PortalClient {
  private readonly base: string;

  constructor(token: string) {
    this.base = `/portal/v1/onboardings/${encodeURIComponent(token)}`;
  }

  private headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (json) headers['Content-Type'] = 'application/json';
    return headers;
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers: { ...this.headers(body !== undefined), ...extraHeaders },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The link session's cookie (HttpOnly, SameSite=Strict) goes with every call.
        credentials: 'same-origin',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      throw new ApiError(0, 'network');
    }
    if (!response.ok) throw await errorFrom(response);
    try {
      return (await response.json()) as T;
    } catch {
      throw new ApiError(response.status, 'bad_body');
    }
  }

  /** The link's state, team and client; needs no PIN and records nothing. */
  face(): Promise<Face> {
    return this.request<Face>('GET', '/face');
  }

  /** Sends the PIN once: the answer sets the link session's cookie; records nothing. */
  openSession(pin: string): Promise<{ expires_at: string | null }> {
    return this.request('POST', '/session', undefined, { [PIN_HEADER]: pin });
  }

  /** Opens the form: the first open after a send records onboarding.started. */
  open(): Promise<OpenAnswer> {
    return this.request<OpenAnswer>('GET', '');
  }

  saveAnswer(fieldId: string, value: unknown): Promise<{ response: PortalResponse }> {
    return this.request('PUT', `/answers/${encodeURIComponent(fieldId)}`, { value });
  }

  submitStep(stepId: string): Promise<{ onboarding: PortalOnboarding }> {
    return this.request('POST', `/steps/${encodeURIComponent(stepId)}/submit`);
  }

  removeFile(fileId: string): Promise<{ success: boolean }> {
    return this.request('DELETE', `/files/${encodeURIComponent(fileId)}`);
  }

  sign(
    fieldId: string,
    signer: { signer_name: string; signer_email: string },
  ): Promise<{ signature: PortalSignature }> {
    return this.request('POST', `/fields/${encodeURIComponent(fieldId)}/signature`, signer);
  }

  /** Uploads one file (multipart field "file"); XMLHttpRequest because fetch reports no upload progress. */
  uploadFile(
    fieldId: string,
    file: File,
    onProgress?: (fraction: number) => void,
  ): Promise<{ file: PortalFile }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.base}/fields/${encodeURIComponent(fieldId)}/files`);
      for (const [name, value] of Object.entries(this.headers(false))) xhr.setRequestHeader(name, value);
      xhr.withCredentials = false;
      xhr.responseType = 'text';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
      };
      xhr.onerror = () => reject(new ApiError(0, 'network'));
      xhr.onabort = () => reject(new ApiError(0, 'aborted'));
      xhr.onload = () => {
        let body: ErrorBody | null;
        try {
          body = JSON.parse(xhr.responseText) as ErrorBody;
        } catch {
          body = null;
        }
        if (xhr.status >= 200 && xhr.status < 300 && body) {
          onProgress?.(1);
          resolve(body as unknown as { file: PortalFile });
          return;
        }
        reject(
          new ApiError(
            xhr.status,
            typeof body?.code === 'string' ? body.code : `http_${xhr.status}`,
            body?.details && typeof body.details === 'object' ? (body.details as ProblemDetails) : null,
            retryAfter(xhr.getResponseHeader('Retry-After')),
          ),
        );
      };
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }
}
