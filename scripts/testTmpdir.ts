/**
 * The test runs' temporary folders in memory: Vitest's global set-up (vitest.config.ts,
 * vitest.soak.config.ts), run in its main process before the workers start, which inherit TMPDIR. Every core
 * a test starts journals to SQLite with synchronous=FULL in a folder under the temporary folder, and
 * better-sqlite3 waits for each commit's fsync on the test's own thread: on this machine's disk
 * 2–10 ms a commit, on /dev/shm (memory) about 0.01 ms. The durability the tests prove (a killed
 * process, a restart on the same folder) holds on /dev/shm as on a disk; what an fsync guards
 * against, a power cut, no test simulates.
 *
 * Child processes (fault workers, PostgreSQL clusters of ~30 MB each) inherit TMPDIR, so /dev/shm is
 * used only with room to spare; a TMPDIR someone set is kept, and without /dev/shm (macOS, Windows)
 * the system's temporary folder is used as before.
 */
import { accessSync, constants, statfsSync } from 'node:fs';

const MEMORY_FOLDER = '/dev/shm';
/** Free space /dev/shm needs (a container's default is 64 MB, too small for the PostgreSQL tests). */
const ROOM_BYTES = 1024 ** 3;

export default function putTmpdirInMemory(): void {
  if (process.env.TMPDIR) return;
  try {
    accessSync(MEMORY_FOLDER, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY_FOLDER);
    if (bavail * bsize >= ROOM_BYTES) process.env.TMPDIR = MEMORY_FOLDER;
  } catch {
    // No /dev/shm here: the system's temporary folder.
  }
}
