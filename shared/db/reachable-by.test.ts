import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canSearch, firstClosedFolder, NOBODY_YET } from './reachable-by.ts';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('whether a system user can enter a folder', () => {
  it('reads the owner, group or other search bit that applies', () => {
    const user = { uid: 101, gids: [104] };
    expect(canSearch({ uid: 101, gid: 0, mode: 0o700 }, user)).toBe(true);
    expect(canSearch({ uid: 0, gid: 0, mode: 0o700 }, user)).toBe(false);
    expect(canSearch({ uid: 0, gid: 104, mode: 0o750 }, user)).toBe(true);
    expect(canSearch({ uid: 0, gid: 0, mode: 0o755 }, user)).toBe(true);
    expect(canSearch({ uid: 0, gid: 0, mode: 0o754 }, user)).toBe(false);
  });

  it('names the first private folder on the way, and none for an open way', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'reachable-'));
    folders.push(base);
    await chmod(base, 0o755);
    const home = path.join(base, 'home');
    await mkdir(path.join(home, 'project', 'data'), { recursive: true });
    await chmod(home, 0o700);
    expect(await firstClosedFolder(path.join(home, 'project', 'data'), NOBODY_YET)).toBe(home);
    await chmod(home, 0o711);
    expect(
      await firstClosedFolder(path.join(home, 'project', 'data', 'not-yet'), NOBODY_YET),
    ).toBeUndefined();
  });
});
