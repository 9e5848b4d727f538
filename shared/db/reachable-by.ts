import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Whether a system user (PostgreSQL's `postgres` user, when the service runs as root) can
 * enter a folder: every folder from / down to it must grant that user search (x) permission,
 * as its owner, through one of its groups, or as anyone else. A private home folder
 * (/root, 0700) stops it.
 */

export interface SystemUser {
  uid: number;
  /** Primary and supplementary groups. */
  gids: number[];
}

/** A user that does not exist yet (created later): only the "anyone else" bits apply. */
export const NOBODY_YET: SystemUser = { uid: -1, gids: [] };

const run = promisify(execFile);

/** The `name` user's ids, or undefined when there is no such user. */
export async function systemUser(name: string): Promise<SystemUser | undefined> {
  try {
    const [uid, groups] = await Promise.all([run('id', ['-u', name]), run('id', ['-G', name])]);
    return {
      uid: Number(uid.stdout.trim()),
      gids: groups.stdout.trim().split(/\s+/).map(Number),
    };
  } catch {
    return undefined;
  }
}

export interface FolderMode {
  uid: number;
  gid: number;
  mode: number;
}

export function canSearch(folder: FolderMode, user: SystemUser): boolean {
  if (folder.uid === user.uid) return (folder.mode & 0o100) !== 0;
  if (user.gids.includes(folder.gid)) return (folder.mode & 0o010) !== 0;
  return (folder.mode & 0o001) !== 0;
}

/**
 * The first existing folder on the way to `target` (itself included) that `user` cannot
 * enter, or undefined when the whole way is open. Folders that do not exist yet are
 * created later by root with mode 0755 and count as open.
 */
export async function firstClosedFolder(target: string, user: SystemUser): Promise<string | undefined> {
  const absolute = path.resolve(target);
  const parts = absolute.split(path.sep).filter((part) => part !== '');
  let current: string = path.sep;
  for (const part of ['', ...parts]) {
    current = part === '' ? current : path.join(current, part);
    let folder;
    try {
      folder = await stat(current);
    } catch {
      return undefined;
    }
    if (folder.isDirectory() && !canSearch(folder, user)) return current;
  }
  return undefined;
}
