import { DomainError } from '../../../shared/commands/decider.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { fileConfig } from '../../templates/contract/field-catalogue.ts';
import type { RemoveFile, UploadFile } from './commands.ts';
import {
  base,
  fail,
  iso,
  problemError,
  requireAnswering,
  requireChangeable,
  requireField,
  requireLink,
} from './rules.ts';
import { isOpenReview, type Onboarding, type OnboardingState } from './state.ts';

/** The client's files on the form: upload within the field's rules, take one back. */
const filesOfField = (onboarding: Onboarding, fieldId: string) =>
  Object.values(onboarding.files).filter((file) => file.field_id === fieldId).length;

/**
 * A file for a file field: its sniffed content type among the field's accepted types,
 * at most the field's number of files, at most its size (the route stops reading a
 * larger upload early; this keeps the rule whole).
 */
export function uploadFile(command: UploadFile, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  requireChangeable(onboarding, data.field_id);
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'file_upload') throw fail('field_not_found');
  const rules = fileConfig(field.field);
  if (!rules.accept.includes(data.content_type)) {
    throw problemError(`Files of type ${data.content_type} are not accepted here`, field, {
      code: 'file_type_not_accepted',
      params: { content_type: data.content_type, accept: rules.accept.join(', ') },
    });
  }
  if (filesOfField(onboarding, field.field.id) >= rules.max_files) {
    throw problemError(`At most ${rules.max_files} files can be uploaded here`, field, {
      code: 'too_many_files',
      params: { max_files: rules.max_files },
    });
  }
  if (data.size_bytes > rules.max_size_bytes) {
    throw new DomainError('payload_too_large', `File larger than ${sizeText(rules.max_size_bytes)}`, {
      field_id: field.field.id,
      step_id: field.step_id,
      problem: { code: 'file_too_large', params: { max_size_bytes: rules.max_size_bytes } },
    });
  }
  return [
    {
      type: 'file.uploaded',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        file_id: data.file_id,
        file_name: data.file_name,
        content_type: data.content_type,
        size_bytes: data.size_bytes,
        uploaded_at: iso(metadata.now),
      },
    },
  ];
}

/** A size as people read it: whole MiB when it is one, else KiB. */
export const sizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/** The client takes a file back while answering, before its step is submitted. */
export function removeFile(command: RemoveFile, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  if (onboarding.status !== 'completed') requireAnswering(onboarding);
  const file = Object.hasOwn(onboarding.files, data.file_id) ? onboarding.files[data.file_id] : undefined;
  if (!file) throw fail('file_not_found');
  requireChangeable(onboarding, file.field_id);
  const sentBack = isOpenReview(onboarding.reviews[file.field_id]);
  if (onboarding.submitted_steps.includes(file.step_id) && !sentBack) {
    throw new DomainError('invalid_state', 'The step of this file is submitted; its files stay', {
      status: onboarding.status,
      step_id: file.step_id,
    });
  }
  return [
    {
      type: 'file_removed',
      data: {
        ...base(onboarding),
        step_id: file.step_id,
        field_id: file.field_id,
        file_id: data.file_id,
        removed_at: iso(metadata.now),
      },
    },
  ];
}
