/**
 * A screen's say before the app navigates away from it: a screen with unsaved edits (the
 * template builder) sets a guard; navigate() asks it first and stays put when it answers
 * false (the screen then asks the member and navigates itself once they choose to leave).
 * Module-level, so the app's navigate needs no prop threading through every screen.
 */
export type LeaveGuard = (path: string) => boolean;

let guard: LeaveGuard | null = null;

/** Sets (or with null clears) the guard; returns a function that clears it if it is still this one. */
export function setLeaveGuard(next: LeaveGuard | null): () => void {
  guard = next;
  return () => {
    if (guard === next) guard = null;
  };
}

/** Whether navigating to `path` may go ahead (true when no guard is set). */
export const mayLeave = (path: string): boolean => (guard ? guard(path) : true);
