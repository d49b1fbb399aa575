import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

/** Raised when another live process holds the data directory. */
export class DirectoryLockedError extends Error {
  override name = 'DirectoryLockedError';
}

/**
 * Takes the data directory for this process. PGlite is one process's database: a second process
 * opening the same directory (a second server, or `veriport report` while the server runs) would
 * corrupt it. A lock file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 *
 * @example
 * const release = lockDirectory('./data/pglite');
 * // ... use the database ...
 * release();
 * @throws {DirectoryLockedError} naming the pid that holds it
 */
export function lockDirectory(directory: string): () => void {
  const file = path.join(directory, 'veriport.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DirectoryLockedError(
          `data directory ${directory} is in use by process ${owner}; stop it, or ask the running server (veriport report --url)`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DirectoryLockedError(`could not lock data directory ${directory}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
