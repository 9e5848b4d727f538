/**
 * A small YAML writer for the generated AsyncAPI document: block mappings and sequences,
 * flow style for short lists of scalars, `|` blocks for multi-line text, and quotes
 * wherever a plain scalar could be read as something else.
 */
type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

const PLAIN = /^[A-Za-z_/][A-Za-z0-9 _./<>()-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(value: null | boolean | number | string): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  if (PLAIN.test(value) && !RESERVED.test(value) && !value.endsWith(' ') && !value.includes(' -'))
    return value;
  return `'${value.replace(/'/g, "''")}'`;
}

const key = (name: string) => (/^[A-Za-z0-9_.$-]+$/.test(name) && !RESERVED.test(name) ? name : scalar(name));

const isScalar = (value: Value): value is null | boolean | number | string =>
  value === null || typeof value !== 'object';

function block(value: Value, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}[]`];
    return value.flatMap((item) => {
      const lines = isScalar(item) ? [scalar(item)] : entry(item, `${indent}  `);
      return [`${indent}- ${lines[0]!.trimStart()}`, ...lines.slice(1)];
    });
  }
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  return entry(value, indent);
}

function entry(value: Value, indent: string): string[] {
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  if (Array.isArray(value)) return block(value, indent);
  const names = Object.keys(value);
  if (names.length === 0) return [`${indent}{}`];
  return names.flatMap((name) => {
    const item = value[name]!;
    const head = `${indent}${key(name)}:`;
    if (typeof item === 'string' && item.includes('\n')) {
      const body = item.replace(/\n+$/, '').split('\n');
      return [`${head} |-`, ...body.map((line) => (line === '' ? '' : `${indent}  ${line}`))];
    }
    if (isScalar(item)) return [`${head} ${scalar(item)}`];
    if (Array.isArray(item)) {
      if (item.length === 0) return [`${head} []`];
      if (item.every(isScalar) && item.length <= 12) return [`${head} [${item.map(scalar).join(', ')}]`];
      return [head, ...block(item, `${indent}  `)];
    }
    if (Object.keys(item).length === 0) return [`${head} {}`];
    return [head, ...entry(item, `${indent}  `)];
  });
}

export function toYaml(value: unknown): string {
  return `${entry(JSON.parse(JSON.stringify(value)) as Value, '').join('\n')}\n`;
}
