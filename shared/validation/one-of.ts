/** A type guard for the members of a fixed list of strings (event names, triggers, enums). */
export const isOneOf =
  <Member extends string>(members: readonly Member[]) =>
  (value: unknown): value is Member =>
    typeof value === 'string' && (members as readonly string[]).includes(value);
