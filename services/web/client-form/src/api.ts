/**
 * The page's client of the portal API (/portal/v1/onboardings/{token}), over the web apps'
 * one typed client (../../shared/api/client.ts): paths, bodies and answers are the generated
 * OpenAPI types, so a change of the server's schema fails this build. The PIN is sent once,
 * to POST .../session, which answers the link session as an HttpOnly cookie; every later call
 * carries that cookie (same origin) and no PIN, and the page keeps the PIN nowhere. A refusal
 * becomes an ApiError the screens turn into human words (the page never shows a JSON body).
 */
import { call, createApiClient, type components, type paths, type Problem } from '../../shared/api/client.ts';
import type { AnswerProblem } from '../../../templates/contract/field-catalogue.ts';

type Schemas = components['schemas'];
type Method = 'get' | 'put' | 'post' | 'delete';
/** The JSON answer of an operation of the document at a status. */
type Json<Path extends keyof paths, M extends Method, Status extends number> = paths[Path][M] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
/** The JSON body of an operation's request. */
type JsonBody<Path extends keyof paths, M extends Method> = paths[Path][M] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

const ONBOARDING = '/portal/v1/onboardings/{token}';
const ANSWER = '/portal/v1/onboardings/{token}/answers/{field_id}';
const STEP_SUBMIT = '/portal/v1/onboardings/{token}/steps/{step_id}/submit';
const FILE = '/portal/v1/onboardings/{token}/files/{file_id}';
const SIGNATURE = '/portal/v1/onboardings/{token}/fields/{field_id}/signature';
const UPLOAD = '/portal/v1/onboardings/{token}/fields/{field_id}/files';
const CHECKOUT = '/portal/v1/onboardings/{token}/fields/{field_id}/checkout';

export type Face = Schemas['PortalFace'];
export type LinkState = Face['link']['state'];
export type FaceTeam = NonNullable<Face['team']>;
export type FaceClient = NonNullable<Face['client']>;
export type PortalResponse = Schemas['Response'];
export type PortalFile = Schemas['UploadedFile'];
export type PortalSignature = Schemas['PortalOnboarding']['signatures'][number];

/*
 * The template snapshot an onboarding was sent with. The document leaves it an open object
 * (the template as it was sent); its fields are the document's TemplateField with their
 * translations, its steps the document's TemplateStep with those fields under `fields`, its
 * top the parts of a workspace template a snapshot copies.
 */
export type PortalField = Schemas['TemplateField'] & { translations?: unknown };
export type PortalStep = Omit<Schemas['TemplateStep'], 'template_fields'> & {
  translations?: unknown;
  fields: PortalField[];
};
type WorkspaceTemplate = Json<'/workspace/v1/templates/{id}', 'get', 200>['template'];
export type PortalSnapshot = Partial<
  Pick<WorkspaceTemplate, 'name' | 'description' | 'settings' | 'translations'>
> & {
  steps: PortalStep[];
};

/** The `onboarding` of GET /portal/v1/onboardings/{token} (and of a step submit), its snapshot named. */
export type PortalOnboarding = Schemas['PortalOnboarding'] & { template_snapshot: PortalSnapshot };

export type OpenAnswer = Json<typeof ONBOARDING, 'get', 200> & { onboarding: PortalOnboarding };
export type Saved = Json<typeof ANSWER, 'put', 200>;
export type Submitted = Json<typeof STEP_SUBMIT, 'post', 200> & { onboarding: PortalOnboarding };
export type Removed = Json<typeof FILE, 'delete', 200>;
export type Signer = JsonBody<typeof SIGNATURE, 'post'>;
export type Signed = Json<typeof SIGNATURE, 'post', 201>;
export type Uploaded = Json<typeof UPLOAD, 'post', 201>;
export type CheckoutStarted = Json<typeof CHECKOUT, 'post', 201>;

/** What the form does with an onboarding: the portal API here, the page's memory in the builder's preview. */
export interface Portal {
  saveAnswer(fieldId: string, value: unknown): Promise<Saved>;
  submitStep(stepId: string): Promise<Submitted>;
  removeFile(fileId: string): Promise<Removed>;
  sign(fieldId: string, signer: Signer): Promise<Signed>;
  uploadFile(fieldId: string, file: File, onProgress?: (fraction: number) => void): Promise<Uploaded>;
  /** A Stripe Checkout page for a payment field, in the form's language (its url). */
  checkout(fieldId: string, locale: string): Promise<CheckoutStarted>;
  /** The link's token the form runs on; null in the builder's preview, whose Pay marks the payment paid. */
  readonly linkToken: string | null;
}

/** What the server says about an answer it refused (400 invalid_body); the document leaves `details` open. */
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

  get linkToken(): string {
    return this.token;
  }

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
  openSession(pin: string) {
    return dataOf(
      this.api.POST('/portal/v1/onboardings/{token}/session', {
        params: { path: { token: this.token }, header: { 'x-onboarding-pin': pin } },
      }),
    );
  }

  /** Opens the form: the first open after a send records onboarding.started. */
  async open(): Promise<OpenAnswer> {
    const answer = await dataOf(this.api.GET(ONBOARDING, { params: { path: { token: this.token } } }));
    return answer as OpenAnswer; // the snapshot, open in the document, read as PortalSnapshot
  }

  saveAnswer(fieldId: string, value: unknown): Promise<Saved> {
    return dataOf(this.api.PUT(ANSWER, { ...this.field(fieldId), body: { value } }));
  }

  async submitStep(stepId: string): Promise<Submitted> {
    const answer = await dataOf(
      this.api.POST(STEP_SUBMIT, { params: { path: { token: this.token, step_id: stepId } } }),
    );
    return answer as Submitted;
  }

  removeFile(fileId: string): Promise<Removed> {
    return dataOf(this.api.DELETE(FILE, { params: { path: { token: this.token, file_id: fileId } } }));
  }

  sign(fieldId: string, signer: Signer): Promise<Signed> {
    return dataOf(this.api.POST(SIGNATURE, { ...this.field(fieldId), body: signer }));
  }

  checkout(fieldId: string, locale: string): Promise<CheckoutStarted> {
    return dataOf(this.api.POST(CHECKOUT, { ...this.field(fieldId), body: { locale } }));
  }

  /** Uploads one file (multipart, its one part "file"), telling `onProgress` how far the upload is. */
  uploadFile(fieldId: string, file: File, onProgress?: (fraction: number) => void): Promise<Uploaded> {
    const form = new FormData();
    form.append('file', file, file.name);
    return dataOf(
      this.api.POST(UPLOAD, {
        ...this.field(fieldId),
        body: { file: file.name }, // the document types the binary part as a string; `form` carries the file
        bodySerializer: () => form,
        fetch: fetchWithProgress(form, onProgress),
      }),
    );
  }
}

/**
 * A fetch for one upload that reports its progress: XMLHttpRequest, because fetch reports
 * no upload progress. It sends `form` (the request's body) with the request's method, URL
 * and headers, and answers a Response as fetch would; no answer rejects, as fetch does.
 */
function fetchWithProgress(form: FormData, onProgress?: (fraction: number) => void) {
  return (request: Request) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      // Content-Type names the Request's own multipart boundary: the browser writes form's.
      request.headers.forEach((value, name) => {
        if (name !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(event.loaded / event.total);
      };
      xhr.onerror = () => reject(new TypeError('The upload got no answer.'));
      xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) onProgress?.(1);
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
        }
        resolve(new Response(xhr.responseText, { status: xhr.status, headers }));
      };
      xhr.send(form);
    });
}
