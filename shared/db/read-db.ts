import { createPool, createTypeParserPreset, type DatabasePool } from 'slonik';

export type { DatabasePool };

/**
 * The query side reads projections through slonik: tagged-template SQL that cannot be
 * concatenated by mistake, and row types checked with zod (`sql.type(schema)`).
 * Timestamps stay Date objects and int8 stays a string, as in the pg pool.
 */
export function createReadDb(url: string, maximumPoolSize = 10): Promise<DatabasePool> {
  const keepDefault = new Set(['timestamptz', 'timestamp', 'int8', 'date']);
  return createPool(url, {
    maximumPoolSize,
    // The default runs DISCARD ALL on every release: a round trip per query, and the query
    // side sets no session state that would need it.
    resetConnection: async () => undefined,
    typeParsers: createTypeParserPreset().filter((parser) => !keepDefault.has(parser.name)),
  });
}
