import pg from 'pg';

/**
 * Emmett's SQL layer (dumbo) replaces pg's *global* type parsers when its first pool is
 * made: int8 becomes BigInt and json/jsonb go through a reviver. The project's code
 * relies on pg's defaults (int8 as string, see shared/db/pool.ts, JSON.parse for jsonb).
 * So that each library runs as it ships while both live in one process:
 * - pools of the project's side get `projectTypes`, fixed per client;
 * - after the Emmett part, `restoreGlobalTypes` puts the globals back for later parts.
 */
const INT8 = pg.types.builtins.INT8;
const JSON_OID = pg.types.builtins.JSON;
const JSONB = pg.types.builtins.JSONB;

const identity = (value: string) => value;

export const projectTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format === undefined || format === 'text') {
      if (oid === INT8) return identity;
      if (oid === JSON_OID || oid === JSONB) return JSON.parse;
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export interface SavedTypes {
  restore(): void;
}

export function saveGlobalTypes(): SavedTypes {
  const saved = [INT8, JSON_OID, JSONB].map((oid) => [oid, pg.types.getTypeParser(oid, 'text')] as const);
  return {
    restore() {
      for (const [oid, parser] of saved) pg.types.setTypeParser(oid, 'text', parser);
    },
  };
}
