import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './paths.js';

let cached: string | undefined;
export function toolVersion(): string {
  cached ??= JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).version as string;
  return cached;
}
