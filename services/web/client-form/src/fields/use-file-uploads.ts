/**
 * The state of a file field: the uploads on their way (with progress), the refusals to say
 * beside the field, the status line for screen readers, and the file being removed. Files the
 * rules refuse never leave the device; the onboarding is reloaded after each upload and
 * removal, so the list is always the server's.
 */
import { useRef, useState } from 'preact/hooks';
import { fileConfig } from '../../../../templates/contract/field-catalogue.ts';
import type { PortalFile } from '../api.ts';
import { refusalText } from '../problems.ts';
import type { FieldProps } from './field-props.ts';
import { checkFiles, refusalOf, type Refusal } from './file-rules.ts';

export interface Upload {
  key: number;
  name: string;
  progress: number;
}

export interface Notice {
  key: number;
  text: string;
}

export function useFileUploads({ field, portal, onboarding, refresh, t, formats }: FieldProps) {
  const rules = fileConfig(field);
  const files = onboarding.files.filter((file) => file.field_id === field.id);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [refusals, setRefusals] = useState<Notice[]>([]);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const counter = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  const failedText = (name: string, refusal: Refusal) =>
    t('files.failed', { name, reason: refusalText(refusal, t, formats) });
  const refuse = (texts: string[]) =>
    setRefusals((list) => [...list, ...texts.map((text) => ({ key: (counter.current += 1), text }))]);

  const add = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    setRefusals([]);
    const check = checkFiles(chosen, rules, files.length + uploads.length);
    refuse(check.refused.map(({ file, problem: found }) => failedText(file.name, { problem: found })));
    for (const file of check.accepted) {
      const key = (counter.current += 1);
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        await portal.uploadFile(field.id, file, (progress) =>
          setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, progress } : upload))),
        );
        // The row stays until the reloaded list shows the file, so the file never blinks out.
        await refresh().catch(() => undefined);
        setStatus(t('files.uploaded', { name: file.name }));
      } catch (error) {
        refuse([failedText(file.name, refusalOf(error, rules))]);
      } finally {
        setUploads((list) => list.filter((upload) => upload.key !== key));
      }
    }
  };

  const remove = async (file: PortalFile) => {
    setRemoving(file.id);
    setRefusals([]);
    try {
      await portal.removeFile(file.id);
      setStatus(t('files.removed', { name: file.file_name }));
      await refresh().catch(() => undefined);
      input.current?.focus();
    } catch (error) {
      refuse([failedText(file.file_name, refusalOf(error, rules))]);
    } finally {
      setRemoving(null);
    }
  };

  return { rules, files, uploads, refusals, status, removing, input, add, remove };
}
