import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../shared/http/download-headers.ts';
import { cleanFileName, FALLBACK_FILE_NAME, MAX_FILE_NAME_CHARACTERS } from './onboarding-files.ts';

describe('the name an uploaded file is kept under', () => {
  it('loses bidirectional overrides, isolates and marks, so the extension shown is the real one', () => {
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(
      cleanFileName('a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069i\u200Ej\u200Fk\u061Cl.pdf'),
    ).toBe('abcdefghijkl.pdf');
  });

  it('loses C0 and C1 controls and DEL, keeps letters of every script, and is trimmed', () => {
    expect(cleanFileName('  re\u0000po\u0007rt\u001b\u007f\u0085\u009f.pdf \t')).toBe('report.pdf');
    expect(cleanFileName('Übersicht – 報告.pdf')).toBe('Übersicht – 報告.pdf');
  });

  it('keeps the last path segment and at most MAX_FILE_NAME_CHARACTERS characters', () => {
    expect(cleanFileName('C:\\Users\\me\\scan.pdf')).toBe('scan.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect([...cleanFileName('😀'.repeat(400))].length).toBe(MAX_FILE_NAME_CHARACTERS);
  });

  it('falls back to a plain name when nothing usable is left', () => {
    for (const name of [undefined, '', '   ', '\u202E\u2066', 'dir/', '..', '.']) {
      expect(cleanFileName(name)).toBe(FALLBACK_FILE_NAME);
    }
  });
});

describe('Content-Disposition of a download (RFC 6266)', () => {
  it('is an attachment with the UTF-8 name in filename* and an ASCII stand-in in filename', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('Übersicht "Q1" 100%.pdf')).toBe(
      `attachment; filename="_bersicht _Q1_ 100_.pdf"; filename*=UTF-8''%C3%9Cbersicht%20%22Q1%22%20100%25.pdf`,
    );
    expect(contentDisposition("it's (1).pdf")).toBe(
      `attachment; filename="it's (1).pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`,
    );
  });
});
