/**
 * Snapshots of long streams. A decider that opts in (`snapshot: { version }`) has its
 * folded state kept every SNAPSHOT_EVERY events, in the append's own transaction, so a
 * command reads one snapshot row and at most that many events instead of the whole stream
 * (an onboarding whose client autosaves thousands of times stays as fast as a fresh one:
 * bench part 7). Chosen over keeping answers outside the stream: the stream stays the one
 * record of what the client did, and the pipeline, the deciders and the rebuild are
 * unchanged.
 *
 * The rules:
 * - `version` names the decider's evolve; change it whenever evolve or the state's shape
 *   changes, and snapshots of the old version are ignored (and replaced by the next command).
 * - The state must survive JSON (plain objects, arrays, strings, numbers, booleans, null).
 * - A snapshot is a cache: losing it costs one full read, never a wrong state.
 */
export interface SnapshotPolicy {
  version: string;
}

/** Events read past the last snapshot before a command takes a new one. */
export const SNAPSHOT_EVERY = 100;

/** True when a command that read `replayed` events past the snapshot and appended `appended` takes a new one. */
export function takesSnapshot(replayed: number, appended: number): boolean {
  return replayed + appended >= SNAPSHOT_EVERY;
}
