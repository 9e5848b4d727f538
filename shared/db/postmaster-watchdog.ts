import { spawn } from 'node:child_process';

/**
 * Ties an embedded PostgreSQL to the node process that started it: when that process dies
 * in any way (SIGKILL, a crash, an out-of-memory kill), the server is stopped, so no
 * orphaned postmaster holds the data directory.
 *
 * The watchdog is a tiny shell, detached into its own session (a signal to the service's
 * process group does not end it first), reading its standard input: a pipe whose other end
 * only this node process holds. The kernel closes that end when the process dies, the
 * shell's `read` sees end of file, and it asks the postmaster for a fast shutdown (SIGINT),
 * then an immediate one (SIGQUIT) after 10 seconds, checking first that the PID is still
 * the postmaster of that data directory; it also removes the database-url file when it
 * still holds this server's URL. An orderly stop writes `stop` to the pipe instead: the
 * watchdog then exits and leaves the server to the caller.
 *
 * The data directory and URL travel in the environment, so that `ps` does not show them.
 */
const SCRIPT = `
read -r line
[ "$line" = stop ] && exit 0
pid=$1
is_ours() { tr '\\0' '\\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$WATCHDOG_DATA_DIR"; }
if [ -n "$WATCHDOG_URL_FILE" ] && [ "$(cat "$WATCHDOG_URL_FILE" 2>/dev/null)" = "$WATCHDOG_URL" ]; then
  rm -f -- "$WATCHDOG_URL_FILE"
fi
is_ours || exit 0
kill -INT "$pid" 2>/dev/null
i=0
while [ "$i" -lt 100 ] && is_ours; do sleep 0.1; i=$((i + 1)); done
is_ours && kill -QUIT "$pid" 2>/dev/null
exit 0
`;

export interface Watchdog {
  /** Releases the watchdog: the caller stops the server itself. */
  release(): void;
}

export function watchPostmaster(
  postmasterPid: number,
  databaseDir: string,
  urlFile: { path: string; url: string },
): Watchdog {
  const child = spawn('sh', ['-c', SCRIPT, 'postmaster-watchdog', String(postmasterPid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      WATCHDOG_DATA_DIR: databaseDir,
      WATCHDOG_URL_FILE: urlFile.path,
      WATCHDOG_URL: urlFile.url,
    },
  });
  child.on('error', () => undefined); // no shell: the server is then only stopped in order
  child.stdin!.on('error', () => undefined);
  child.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      child.stdin!.end('stop\n');
    },
  };
}
