/**
 * The portal of the builder's preview: the form's Portal (./api.ts), answered in the
 * page's memory. Nothing reaches the service: answers, files and signatures live until the
 * page closes. A step submit completes the preview as the server would complete an
 * onboarding: when every shown, required step is submitted (conditional rules included).
 */
import { visibility } from '../../../templates/contract/conditional-rules.ts';
import {
  type CheckoutStarted,
  type Portal,
  type PortalFile,
  type PortalOnboarding,
  type PortalResponse,
  type PortalSignature,
  type PortalSnapshot,
  type Removed,
  type Saved,
  type Signed,
  type Signer,
  type Submitted,
  type Uploaded,
} from './api.ts';

export class PreviewPortal implements Portal {
  private readonly answers = new Map<string, PortalResponse>();
  private readonly files: PortalFile[] = [];
  private readonly signatures: PortalSignature[] = [];
  private readonly submitted = new Set<string>();
  private readonly paid = new Set<string>();
  private status: PortalOnboarding['status'] = 'in_progress';
  private counter = 0;

  readonly linkToken = null;

  constructor(private readonly snapshot: PortalSnapshot) {}

  private nextId(): string {
    this.counter += 1;
    return `preview-${this.counter}`;
  }

  /** The onboarding as GET /portal/v1/onboardings/:token would answer it. */
  onboarding(): PortalOnboarding {
    return {
      id: 'preview',
      status: this.status,
      progress_pct: 0,
      due_date: null,
      template_snapshot: this.snapshot,
      responses: [...this.answers.values()],
      files: [...this.files],
      signatures: [...this.signatures],
      submitted_step_ids: [...this.submitted],
      paid_field_ids: [...this.paid],
      failed_payment_field_ids: [],
      reviews: [],
      // The preview never completes into a stored document.
      document_ready: false,
    };
  }

  async saveAnswer(fieldId: string, value: unknown): Promise<Saved> {
    const response: PortalResponse = {
      id: this.answers.get(fieldId)?.id ?? this.nextId(),
      field_id: fieldId,
      value,
      status: 'draft',
      rejection_reason: null,
      created_at: new Date().toISOString(),
    };
    this.answers.set(fieldId, response);
    return { response };
  }

  async submitStep(stepId: string): Promise<Submitted> {
    this.submitted.add(stepId);
    const fulfilled = new Set([...this.files, ...this.signatures].map((item) => item.field_id));
    const shown = visibility(this.snapshot, (fieldId) =>
      fulfilled.has(fieldId) ? true : (this.answers.get(fieldId)?.value ?? null),
    );
    const done = this.snapshot.steps.every(
      (step) => step.is_optional || this.submitted.has(step.id) || !shown.stepShown(step.id),
    );
    if (done) this.status = 'completed';
    return { onboarding: this.onboarding() };
  }

  async uploadFile(fieldId: string, file: File, onProgress?: (fraction: number) => void): Promise<Uploaded> {
    const kept: PortalFile = {
      id: this.nextId(),
      field_id: fieldId,
      file_name: file.name,
      content_type: file.type || 'application/octet-stream',
      size_bytes: file.size,
      uploaded_at: new Date().toISOString(),
    };
    this.files.push(kept);
    onProgress?.(1);
    return { file: kept };
  }

  async removeFile(fileId: string): Promise<Removed> {
    const at = this.files.findIndex((file) => file.id === fileId);
    if (at >= 0) this.files.splice(at, 1);
    return { success: true };
  }

  async sign(fieldId: string, signer: Signer): Promise<Signed> {
    const signature = {
      id: this.nextId(),
      field_id: fieldId,
      ...signer,
      signer_role: 'client' as const,
      signed_at: new Date().toISOString(),
    };
    this.signatures.push(signature);
    return { signature };
  }

  /** The preview takes no money: Pay marks the payment paid in the page's memory, with no page to go to. */
  async checkout(fieldId: string): Promise<CheckoutStarted> {
    this.paid.add(fieldId);
    return { url: '' };
  }
}
