/**
 * The page's client of the portal API (/portal/v1/onboardings/{token}), over the web apps'
 * one typed client (../../shared/api/client.ts): paths, bodies and answers are the generated
 * OpenAPI types, so a change of the server's schema fails this build. The PIN is sent once,
 * to POST .../session, which answers the link session as an HttpOnly cookie; every later call
 * carries that cookie (same origin) and no PIN, and the page keeps the PIN nowhere. A refusal
 * becomes an ApiError the screens turn into human words (the page never shows a JSON body).
 */
import {
  call,
  createApiClient,
  NO_ANSWER,
  problemOf,
  type components,
  type paths,
  type Problem,
} from '../../shared/api/client.ts';
import type { AnswerProblem } from '../../../templates/contract/field-catalogue.ts';

type Schemas = components['schemas'];
type Json<
  Path extends keyof paths,
  Method extends 'get' | 'post',
  Status extends number,
> = paths[Path][Method] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

export type Face = Schemas['PortalFace'];
export type LinkState = Face['link']['state'];
export type FaceTeam = NonNullable<Face['team']>;
export type FaceClient = NonNullable<Face['client']>;
export type PortalResponse = Schemas['Response'];
export type PortalFile = Schemas['UploadedFile'];
export type PortalSignature = Schemas['PortalOnboarding']['signatures'][number];

/*
 * The template snapshot an onboarding was sent with. The OpenAPI document leaves it an open
 * object (it is the template's own shape, kept as sent), so the page names the parts it reads.
 */
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

export type PortalSnapshot = {
  name?: string;
  description?: string | null;
  translations?: unknown;
  settings?: Record<string, unknown>;
  steps: PortalStep[];
};

/** The `onboarding` of GET /portal/v1/onboardings/{token} (and of a step submit), its snapshot named. */
export type PortalOnboarding = Schemas['PortalOnboarding'] & { template_snapshot: PortalSnapshot };

export type OpenAnswer = Json<'/portal/v1/onboardings/{token}', 'get', 200> & {
  onboarding: PortalOnboarding;
};

type Signer = { signer_name: string; signer_email: string };

/** What the form does with an onboarding: the portal API here, the page's memory in the builder's preview. */
export interface Portal {
  saveAnswer(fieldId: string, value: unknown): Promise<{ response: PortalResponse }>;
  submitStep(stepId: string): Promise<{ onboarding: PortalOnboarding }>;
  removeFile(fileId: string): Promise<{ success: boolean }>;
  sign(fieldId: string, signer: Signer): Promise<{ signature: PortalSignature }>;
  uploadFile(
    fieldId: string,
    file: File,
    onProgress?: (fraction: number) => void,
  ): Promise<{ file: PortalFile }>;
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

  static of(problem: Problem): ApiError {
    return new ApiError(
      problem.status,
      problem.code,
      problem.details as ProblemDetails | null,
      problem.retryAfterSeconds,
    );
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

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

/** The data of a success; a refusal or no answer throws its ApiError. */
async function dataOf<A extends { data?: unknown; error?: unknown; response: Response }>(
  request: Promise<A>,
): Promise<Exclude<A['data'], undefined>> {
  const outcome = await call(request);
  if (!outcome.ok) throw ApiError.of(outcome.problem);
  return outcome.data;
}

export class PortalClient implements Portal {
  // The link session's cookie (HttpOnly, SameSite=Strict) goes with every call (same origin).
  private readonly api = createApiClient({ cache: 'no-store', referrerPolicy: 'no-referrer' });

  constructor(private readonly token: string) {}

  private field(fieldId: string) {
    return { params: { path: { token: this.token, field_id: fieldId } } };
  }

  /** The link's state, team and client; needs no PIN and records nothing. */
  face(): Promise<Face> {
    return dataOf(
      this.api.GET('/portal/v1/onboardings/{token}/face', { params: { path: { token: this.token } } }),
    );
  }

  /** Sends the PIN once: the answer sets the link session's cookie; records nothing. */
  openSession(pin: string): Promise<{ expires_at: string | null }> {
    return dataOf(
      this.api.POST('/portal/v1/onboardings/{token}/session', {
        params: { path: { token: this.token }, header: { 'x-onboarding-pin': pin } },
      }),
    );
  }

  /** Opens the form: the first open after a send records onboarding.started. */
  async open(): Promise<OpenAnswer> {
    const answer = await dataOf(
      this.api.GET('/portal/v1/onboardings/{token}', { params: { path: { token: this.token } } }),
    );
    return answer as OpenAnswer;
  }

  saveAnswer(fieldId: string, value: unknown): Promise<{ response: PortalResponse }> {
    return dataOf(
      this.api.PUT('/portal/v1/onboardings/{token}/answers/{field_id}', {
        ...this.field(fieldId),
        body: { value },
      }),
    );
  }

  async submitStep(stepId: string): Promise<{ onboarding: PortalOnboarding }> {
    const answer = await dataOf(
      this.api.POST('/portal/v1/onboardings/{token}/steps/{step_id}/submit', {
        params: { path: { token: this.token, step_id: stepId } },
      }),
    );
    return answer as { onboarding: PortalOnboarding };
  }

  removeFile(fileId: string): Promise<{ success: boolean }> {
    return dataOf(
      this.api.DELETE('/portal/v1/onboardings/{token}/files/{file_id}', {
        params: { path: { token: this.token, file_id: fileId } },
      }),
    );
  }

  sign(fieldId: string, signer: Signer): Promise<{ signature: PortalSignature }> {
    return dataOf(
      this.api.POST('/portal/v1/onboardings/{token}/fields/{field_id}/signature', {
        ...this.field(fieldId),
        body: signer,
      }),
    );
  }

  /** Uploads one file (multipart field "file"); XMLHttpRequest because fetch reports no upload progress. */
  uploadFile(
    fieldId: string,
    file: File,
    onProgress?: (fraction: number) => void,
  ): Promise<Json<'/portal/v1/onboardings/{token}/fields/{field_id}/files', 'post', 201>> {
    const token = encodeURIComponent(this.token);
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/portal/v1/onboardings/${token}/fields/${encodeURIComponent(fieldId)}/files`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.withCredentials = false;
      xhr.responseType = 'text';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
      };
      xhr.onerror = () => reject(ApiError.of(NO_ANSWER));
      xhr.onabort = () => reject(new ApiError(0, 'aborted'));
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = null;
        }
        if (xhr.status >= 200 && xhr.status < 300 && body) {
          onProgress?.(1);
          resolve(body as { file: PortalFile });
          return;
        }
        reject(ApiError.of(problemOf(xhr.status, body, xhr.getResponseHeader('Retry-After'))));
      };
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }
}
