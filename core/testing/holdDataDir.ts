/**
 * Holds a data directory's lock in a separate process until killed (the lock tests):
 * `node --import tsx core/testing/holdDataDir.ts DIR` (the tests run it bundled) prints "locked" once it holds it.
 */
import { lockDataDir } from '../journal/dataDirLock';

lockDataDir(process.argv[2] as string, 'test holder');
process.stdout.write('locked\n');
setInterval(() => {}, 60_000);
