/** bench/RESULTS.md (generated), bench/analysis.md (written by hand, copied into RESULTS.md). */
export const RESULTS_FILE = new URL('../RESULTS.md', import.meta.url);
export const ANALYSIS_FILE = new URL('../analysis.md', import.meta.url);
/** The last run's figures under bench/.work, for bench/rewrite-results.ts. */
export const LAST_RUN = 'last-run.json';
