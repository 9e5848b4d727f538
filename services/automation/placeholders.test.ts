import { describe, expect, it } from 'vitest';
import { fillPlaceholders, unknownPlaceholders, PLACEHOLDERS } from './placeholders.ts';

describe('unknownPlaceholders', () => {
  it('finds written placeholders that do not exist, once each, as typed', () => {
    expect(
      unknownPlaceholders('Hi {{client.name}}, {{ client_name }} {{client.name}} {{Team_Name}} {{}}'),
    ).toEqual(['{{client.name}}', '{{Team_Name}}', '{{}}']);
  });

  it('accepts every known placeholder, with or without spaces, and plain braces', () => {
    const text = PLACEHOLDERS.map((name) => `{{ ${name} }} {{${name}}}`).join(' ') + ' {single} }}';
    expect(unknownPlaceholders(text)).toEqual([]);
  });

  it('an accepted text fills completely', () => {
    const values = Object.fromEntries(PLACEHOLDERS.map((name) => [name, 'x'])) as never;
    expect(fillPlaceholders('{{client_name}} {{ due_date }}', values)).toBe('x x');
  });
});
