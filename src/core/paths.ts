import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

/** The package root (holds package.json, sandboxes/, schemas/), found from this compiled file. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'sandboxes'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot locate the nbmodernize package root');
    dir = up;
  }
}
