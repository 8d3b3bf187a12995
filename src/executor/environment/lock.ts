/**
 * One builder per environment hash: parallel test workers or two terminals asking for the same
 * environment must not run two 2-minute debootstraps into the same cache entry.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from './cache.js';

export interface BuildLock {
  release(): void;
}

/** Takes the lock file, waiting while a live process holds it; a dead holder's lock is taken over. */
export async function acquireBuildLock(
  file: string,
  opts: { signal?: AbortSignal; onWait?: (holder: number) => void; pollMs?: number } = {},
): Promise<BuildLock> {
  let announced = false;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return {
        release: () => {
          try {
            if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(safeRead(file), 10);
    // Empty for a moment between the holder's open and write: only a stale empty file is abandoned.
    const abandoned = Number.isFinite(holder) ? !pidAlive(holder) : ageMs(file) > 10_000;
    if (abandoned) {
      // A crashed builder's lock. Remove and race for it again (wx decides the winner).
      try {
        fs.unlinkSync(file);
      } catch {
        // someone else removed it first
      }
      continue;
    }
    if (!announced && Number.isFinite(holder)) {
      opts.onWait?.(holder);
      announced = true;
    }
    try {
      await sleep(opts.pollMs ?? 1000, undefined, { signal: opts.signal });
    } catch (err) {
      // Surface the caller's abort reason (e.g. "interrupted by SIGINT"), not a generic AbortError.
      opts.signal?.throwIfAborted();
      throw err;
    }
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
