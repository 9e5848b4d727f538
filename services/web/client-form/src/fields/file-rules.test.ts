import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_TYPES, fileConfig } from '../../../../templates/contract/field-catalogue.ts';
import { ApiError, type ProblemDetails } from '../api.ts';
import {
  acceptAttribute,
  checkFiles,
  fileTypeAccepted,
  fileTypeName,
  fileTypeNames,
  refusalOf,
} from './file-rules.ts';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('file type names', () => {
  it('names types as people know them', () => {
    expect(fileTypeNames(['application/pdf', 'image/png', 'image/jpeg'], 'en-US')).toBe('PDF, PNG, JPEG');
    expect(fileTypeName('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'DOCX',
    );
    expect(fileTypeName('image/x-icon')).toBe('ICON');
  });

  it('lists them the way the client language does', () => {
    expect(fileTypeNames(['application/pdf', 'image/png'], 'ja-JP')).toBe('PDF、PNG');
    expect(fileTypeNames([...DEFAULT_FILE_TYPES], 'de-DE')).toBe('PDF, PNG, JPEG, WebP und HEIC');
  });

  it('builds the picker accept list from types and name endings', () => {
    expect(acceptAttribute(['application/pdf', 'image/jpeg'])).toBe(
      'application/pdf,image/jpeg,.pdf,.jpg,.jpeg',
    );
  });
});

describe('fileTypeAccepted', () => {
  const accept = ['application/pdf', 'image/heic', 'image/jpeg'];
  it('goes by the reported type, with its common aliases', () => {
    expect(fileTypeAccepted(file('scan.pdf', 'application/pdf'), accept)).toBe(true);
    expect(fileTypeAccepted(file('photo.jpg', 'image/jpg'), accept)).toBe(true);
    expect(fileTypeAccepted(file('photo.png', 'image/png'), accept)).toBe(false);
    expect(fileTypeAccepted(file('renamed.pdf', 'image/png'), accept)).toBe(false);
  });

  it('goes by the name when the browser reports no type', () => {
    expect(fileTypeAccepted(file('IMG_0001.HEIC', ''), accept)).toBe(true);
    expect(fileTypeAccepted(file('notes.txt', ''), accept)).toBe(false);
    expect(fileTypeAccepted(file('noending', 'application/octet-stream'), accept)).toBe(false);
  });
});

describe('checkFiles', () => {
  const rules = fileConfig({
    config: { accept: ['application/pdf', 'image/png'], max_files: 3, max_size_mb: 1 },
  });

  it('refuses wrong types, large files and files past the count, keeping the rest', () => {
    const chosen = [
      file('a.pdf', 'application/pdf'),
      file('b.exe', 'application/x-msdownload'),
      file('c.png', 'image/png', 2 * 1024 * 1024),
      file('d.png', 'image/png'),
      file('e.pdf', 'application/pdf'),
    ];
    const result = checkFiles(chosen, rules, 1);
    expect(result.accepted.map((f) => f.name)).toEqual(['a.pdf', 'd.png']);
    expect(result.refused.map(({ file, problem }) => [file.name, problem])).toEqual([
      ['b.exe', { code: 'file_type_not_accepted' }],
      ['c.png', { code: 'file_too_large', params: { size: 1024 * 1024 } }],
      ['e.pdf', { code: 'too_many_files', params: { max: 3 } }],
    ]);
  });

  it('takes a file exactly at the size limit', () => {
    expect(checkFiles([file('a.pdf', 'application/pdf', 1024 * 1024)], rules, 0).accepted).toHaveLength(1);
  });
});

describe('refusalOf', () => {
  const rules = { max_files: 2, max_size_bytes: 5 * 1024 * 1024 };
  const failed = (
    status: number,
    code: string,
    details: unknown = null,
    retryAfterSeconds: number | null = null,
  ) => new ApiError(status, code, details as ProblemDetails | null, retryAfterSeconds);

  it('shows the problem the server found in the file', () => {
    expect(
      refusalOf(
        failed(400, 'invalid_body', { field_id: 'f', problem: { code: 'file_type_not_accepted' } }),
        rules,
      ),
    ).toEqual({ problem: { code: 'file_type_not_accepted' } });
    expect(refusalOf(failed(400, 'invalid_body', { problem: { code: 'too_many_files' } }), rules)).toEqual({
      problem: { code: 'too_many_files', params: { max: 2 } },
    });
  });

  it('names the size limit for a file the server found too large', () => {
    expect(refusalOf(failed(413, 'payload_too_large'), rules)).toEqual({
      problem: { code: 'file_too_large', params: { size: 5 * 1024 * 1024 } },
    });
  });

  it('tells the client about the network, a busy service and anything else', () => {
    expect(refusalOf(failed(0, 'network'), rules)).toEqual({ message: 'errors.network' });
    expect(refusalOf(failed(429, 'rate_limited', null, 12.2), rules)).toEqual({
      message: 'errors.busy',
      seconds: 13,
    });
    expect(refusalOf(failed(500, 'internal'), rules)).toEqual({ message: 'errors.generic' });
    expect(refusalOf(new Error('boom'), rules)).toEqual({ message: 'errors.generic' });
  });
});
