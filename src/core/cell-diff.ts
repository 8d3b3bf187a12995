/** Unified diffs of cell sources (the one module importing `diff`). */
import { createTwoFilesPatch } from 'diff';

export function cellDiff(cell: number, before: string, after: string, label = 'cell'): string {
  const b = before.endsWith('\n') ? before : `${before}\n`;
  const a = after.endsWith('\n') ? after : `${after}\n`;
  return createTwoFilesPatch(`a/${label} ${cell}`, `b/${label} ${cell}`, b, a, '', '', { context: 3 });
}
