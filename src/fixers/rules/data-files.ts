/** The competition's data files, as paths relative to the data dir (what data-path rules match against). */
import fs from 'node:fs';
import path from 'node:path';

export function listDataFiles(dir: string, maxDepth = 3, limit = 5000): string[] {
  const out: string[] = [];
  const visit = (rel: string, depth: number) => {
    if (out.length >= limit) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (depth < maxDepth) visit(r, depth + 1);
      } else out.push(r);
    }
  };
  visit('', 1);
  return out;
}
