import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/**
 * CPU time (user + system, ms) every PostgreSQL process of this machine has used so far: the
 * postmaster and its backends, read from /proc. The bench's embedded server is the only one
 * running during a part, so the difference across a phase is that phase's server CPU
 * (backends that ended during the phase are left out; the parts measured keep theirs).
 */
export async function postgresCpuMs(): Promise<number> {
  let ticks = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (!command.startsWith('postgres')) continue;
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while being read
    }
  }
  return ticks * TICK_MS;
}
