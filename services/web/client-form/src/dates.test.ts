import { describe, expect, it } from 'vitest';
import { formatDate, parseDate } from './dates.ts';

describe('formatDate', () => {
  it('shows a calendar date in each client format without moving it', () => {
    expect(formatDate('2026-03-09', 'MM/DD/YYYY', 'Pacific/Honolulu')).toBe('03/09/2026');
    expect(formatDate('2026-03-09', 'DD/MM/YYYY', 'UTC')).toBe('09/03/2026');
    expect(formatDate('2026-03-09', 'YYYY-MM-DD', 'UTC')).toBe('2026-03-09');
    expect(formatDate('2026-03-09', 'DD.MM.YYYY', 'UTC')).toBe('09.03.2026');
  });

  it('shows an instant as its day in the client timezone', () => {
    expect(formatDate('2026-03-09T23:30:00Z', 'DD.MM.YYYY', 'Europe/Berlin')).toBe('10.03.2026');
    expect(formatDate('2026-03-09T03:30:00Z', 'MM/DD/YYYY', 'America/New_York')).toBe('03/08/2026');
    expect(formatDate('2026-03-09T23:30:00Z', 'YYYY-MM-DD', 'Asia/Tokyo')).toBe('2026-03-10');
  });

  it('falls back to UTC and MM/DD/YYYY for an unknown timezone or format', () => {
    expect(formatDate('2026-03-09T23:30:00Z', 'whatever', 'Not/AZone')).toBe('03/09/2026');
  });
});

describe('parseDate', () => {
  it('reads a typed date in the client format', () => {
    expect(parseDate('03/09/2026', 'MM/DD/YYYY')).toBe('2026-03-09');
    expect(parseDate('09/03/2026', 'DD/MM/YYYY')).toBe('2026-03-09');
    expect(parseDate('9.3.2026', 'DD.MM.YYYY')).toBe('2026-03-09');
    expect(parseDate('2026-03-09', 'YYYY-MM-DD')).toBe('2026-03-09');
    expect(parseDate(' 2026-03-09 ', 'DD.MM.YYYY')).toBe('2026-03-09');
  });

  it('takes / . - and spaces as separators, and a year first in every format', () => {
    expect(parseDate('23.06.1990', 'DD.MM.YYYY')).toBe('1990-06-23');
    expect(parseDate('23/06/1990', 'DD.MM.YYYY')).toBe('1990-06-23');
    expect(parseDate('23-06-1990', 'DD/MM/YYYY')).toBe('1990-06-23');
    expect(parseDate('1990/06/23', 'YYYY-MM-DD')).toBe('1990-06-23');
    expect(parseDate('1990.6.23', 'YYYY-MM-DD')).toBe('1990-06-23');
    expect(parseDate('1990/06/23', 'MM/DD/YYYY')).toBe('1990-06-23');
    expect(parseDate('06 23 1990', 'MM/DD/YYYY')).toBe('1990-06-23');
    expect(parseDate('23/06/1912', 'DD/MM/YYYY')).toBe('1912-06-23');
  });

  it('refuses dates that do not exist or do not fit the format', () => {
    expect(parseDate('31/02/2026', 'DD/MM/YYYY')).toBeNull();
    expect(parseDate('13/01/2026', 'MM/DD/YYYY')).toBeNull();
    expect(parseDate('09/03/26', 'DD/MM/YYYY')).toBeNull();
    expect(parseDate('09/03/2026', 'YYYY-MM-DD')).toBeNull();
    expect(parseDate('soon', 'DD.MM.YYYY')).toBeNull();
    expect(parseDate('', 'DD.MM.YYYY')).toBeNull();
  });
});
