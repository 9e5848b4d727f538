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
    typeParsers: createTypeParserPreset().filter((parser) => !keepDefault.has(parser.name)),
  });
}
