const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for a UUID in its canonical text form (any case). Ids from paths and bodies are
 * checked with it before they reach a uuid column, which would reject anything else with an
 * error instead of finding nothing.
 */
export const isUuid = (value: string): boolean => UUID.test(value);
