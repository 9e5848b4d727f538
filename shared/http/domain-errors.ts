import { DomainError } from '../commands/decider.ts';
import type { ApiError } from './api-error.ts';

/**
 * From a feature's domain errors to HTTP answers, one table per feature, registered
 * once. A table gives the status of each code its deciders throw and the body form its
 * API answers with; the pipeline's callers and the API error handlers turn a refused
 * command into an answer through `answerRefusal`, never through a table of their own.
 */
export interface DomainErrorTable {
  readonly feature: string;
  /** The HTTP answer of `error`; undefined when the table does not know it. */
  answer(error: DomainError): ApiError | undefined;
}

export interface DomainErrorSpec {
  /** HTTP status of each code of the feature. */
  statuses: Readonly<Record<string, number>>;
  /** The body of a refused command with its status. */
  form: (error: DomainError, status: number) => ApiError;
  /** Codes whose answer differs from the form (checked first); undefined falls through. */
  special?: (error: DomainError) => ApiError | undefined;
  /** The status of codes missing from `statuses`; without it they go to `fallback`. */
  defaultStatus?: number;
  /** The table that answers for codes this one does not know. */
  fallback?: DomainErrorTable;
}

const registered = new Set<string>();

/** Registers the table of `feature`; a feature registers exactly one table. */
export function registerDomainErrors(feature: string, spec: DomainErrorSpec): DomainErrorTable {
  if (registered.has(feature)) throw new Error(`domain errors of ${feature} are registered twice`);
  const table: DomainErrorTable = {
    feature,
    answer(error) {
      const special = spec.special?.(error);
      if (special) return special;
      const status = spec.statuses[error.code] ?? spec.defaultStatus;
      if (status !== undefined) return spec.form(error, status);
      return spec.fallback?.answer(error);
    },
  };
  registered.add(feature);
  return table;
}

/** `error` as the table answers it when it is a refusal the table knows; otherwise `error` unchanged. */
export function answerRefusal(table: DomainErrorTable, error: unknown): unknown {
  return error instanceof DomainError ? (table.answer(error) ?? error) : error;
}

/** Runs `work`; a refusal the table knows becomes its HTTP answer. */
export async function answeringRefusals<T>(table: DomainErrorTable, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw answerRefusal(table, error);
  }
}
