import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import type { OnboardingEvent, TemplateSnapshot } from '../onboarding-events.ts';

/** One file a client uploaded, as the client hub lists it. */
export interface HubFile {
  onboarding_id: string;
  file_id: string;
  file_name: string | null;
  field_label: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string;
}

/**
 * Pure: the files still on an onboarding's form (uploaded and not removed), with the label
 * of their field and their name as opened from the vault (null once unreadable).
 */
export function clientFiles(
  onboardingId: string,
  recorded: readonly RecordedEvent[],
  snapshot: TemplateSnapshot,
  opened: ReadonlyMap<string, unknown>,
): HubFile[] {
  const labels = new Map(
    snapshot.steps.flatMap((step) => step.fields.map((field) => [field.id, field.label])),
  );
  const files = new Map<string, HubFile>();
  for (const one of recorded) {
    const event = { type: one.type, data: one.data } as OnboardingEvent;
    if (event.type === 'file.uploaded') {
      const name = opened.get(one.id);
      files.set(event.data.file_id, {
        onboarding_id: onboardingId,
        file_id: event.data.file_id,
        file_name: typeof name === 'string' ? name : null,
        field_label: labels.get(event.data.field_id) ?? event.data.field_id,
        content_type: event.data.content_type,
        size_bytes: event.data.size_bytes,
        uploaded_at: event.data.uploaded_at,
      });
    } else if (event.type === 'file_removed') {
      files.delete(event.data.file_id);
    }
  }
  return [...files.values()];
}
