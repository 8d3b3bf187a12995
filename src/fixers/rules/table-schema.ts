/**
 * The shape of a change-record table file (`tables/<library>.json`), checked when the tables load so a
 * hand-edited entry with a misspelt field fails at start-up with its file and id, not silently at scan
 * time. The files are data: the engine (table-rules.ts) is the only code that interprets them.
 */
import { z } from 'zod';
import { LIBRARIES, type Library } from './types.js';
import type { TableEntry } from './table-rules.js';

const receiver = z.enum(['pandas', 'DataFrame', 'Series', 'estimator', 'any']);
const callee = z.union([z.object({ qname: z.string() }).strict(), z.object({ method: z.string(), receiver }).strict()]);
/** An error signature as written in the file: the pattern is a regular expression's source. */
const errorSignature = z.object({ ename: z.string(), pattern: z.string() }).strict();

const fixture = z.object({
  before: z.string(),
  after: z.string().optional(),
  manual: z.string().optional(),
  expect: z.string(),
  beforeOutcome: z.enum(['error', 'differs']).optional(),
  beforeError: z.string().optional(),
  sandboxSetup: z.string().optional(),
  noSandbox: z.string().optional(),
  // Engine context (the runtime error a rule fired by evidence needs): validated by its consumers.
  context: z.record(z.string(), z.unknown()).optional(),
}).strict();

const base = {
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)+$/),
  library: z.enum(LIBRARIES as [Library, ...Library[]]),
  removedIn: z.string(),
  deprecatedIn: z.string().optional(),
  link: z.string().url(),
  message: z.string(),
  fixtures: z.array(fixture).min(1),
  errors: z.array(errorSignature).optional(),
  trigger: z.enum(['static', 'error']).optional(),
  /** Why the entry is written as it is (what a code comment would say). */
  note: z.string().optional(),
};

const entry = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.enum(['move-symbol', 'rename-function']), from: z.string(), to: z.string() }).strict(),
  z.object({ ...base, kind: z.literal('rename-kwarg'), callees: z.array(callee).min(1), from: z.string(), to: z.string(), values: z.record(z.string(), z.string()).optional() }).strict(),
  z.object({ ...base, kind: z.literal('drop-kwarg'), callees: z.array(callee).min(1), kwarg: z.string(), onlyValues: z.array(z.string()).optional(), always: z.literal(true).optional(), why: z.string() }).strict(),
  z.object({ ...base, kind: z.literal('replace-value'), callees: z.array(callee).min(1), kwarg: z.string(), values: z.record(z.string(), z.string()), inDicts: z.boolean().optional(), position: z.number().int().min(0).optional() }).strict(),
  z.object({ ...base, kind: z.literal('rename-method'), receiver, from: z.string(), to: z.string(), attribute: z.boolean().optional() }).strict(),
]);

/** Parse one table file's JSON text into entries (patterns compiled); throws naming the file and the entry. */
export function parseTable(text: string, file: string): TableEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`change-record table ${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(raw)) throw new Error(`change-record table ${file}: expected a JSON array of entries`);
  return raw.map((item, i) => {
    const parsed = entry.safeParse(item);
    if (!parsed.success) {
      const id = (item as { id?: unknown })?.id;
      const where = parsed.error.issues.slice(0, 3).map((iss) => `${iss.path.join('.') || '(entry)'}: ${iss.message}`).join('; ');
      throw new Error(`change-record table ${file}, entry ${i}${typeof id === 'string' ? ` (${id})` : ''}: ${where}`);
    }
    const { errors, ...rest } = parsed.data;
    const compiled = errors?.map((s) => {
      try {
        return { ename: s.ename, pattern: new RegExp(s.pattern) };
      } catch (e) {
        throw new Error(`change-record table ${file}, entry ${i} (${rest.id}): bad error pattern ${JSON.stringify(s.pattern)} (${(e as Error).message})`);
      }
    });
    return { ...rest, ...(compiled ? { errors: compiled } : {}) } as TableEntry;
  });
}
