import { describe, expect, it } from 'vitest';
import { humanDate, humanDateTime } from './human-date.ts';

describe('humanDate', () => {
  it('shows a calendar date as that day in each language, whatever the zone', () => {
    expect(humanDate('1990-06-23', 'en-GB', 'Pacific/Kiritimati')).toBe('23 June 1990');
    expect(humanDate('1990-06-23', 'de-DE')).toBe('23. Juni 1990');
    expect(humanDate('1990-06-23', 'ja-JP')).toBe('1990年6月23日');
    expect(humanDate('1990-06-23', 'en-US')).toBe('June 23, 1990');
  });

  it('shows an instant as the day it is in the reader’s zone', () => {
    expect(humanDate('2026-12-05T23:30:00Z', 'en-GB', 'Europe/Berlin')).toBe('6 December 2026');
    expect(humanDate('2026-12-05T23:30:00Z', 'en-GB', 'Not/AZone')).toBe('5 December 2026');
    expect(humanDateTime('2026-12-05T23:30:00Z', 'en-GB', 'UTC')).toBe('5 December 2026 at 23:30');
  });

  it('returns what is not a date unchanged', () => {
    expect(humanDate('soon', 'en-US')).toBe('soon');
  });
});
