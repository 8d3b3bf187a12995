/**
 * The shared front half of every command that runs one notebook (run, modernize): load it (with
 * the nbformat-3 note), refuse what cannot run (non-Python kernel, no code, missing data), and
 * resolve the sandbox request and the output directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { assertHasCode, notebookKernel, readNotebookFile, type LoadedNotebook } from '../core/notebook.js';
import { validateDataMount } from '../executor/kaggle-layout.js';
import type { SandboxRequest } from '../executor/types.js';
import type { CliContext } from './context.js';
import { sandboxRequestFrom, withProjectDefault } from './options.js';

export interface NotebookInput {
  nbPath: string;
  name: string;
  loaded: LoadedNotebook;
  sandbox: SandboxRequest;
  outDir: string;
}

export function notebookInput(command: string, positionals: string[], values: Record<string, any>, ctx: CliContext): NotebookInput {
  if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one NOTEBOOK`, `see: nbmodernize ${command} --help`);
  const nbPath = path.resolve(ctx.cwd, positionals[0]);
  const loaded = readNotebookFile(nbPath);
  for (const note of loaded.notes) ctx.stderr(`nbmodernize: ${note}\n`);
  notebookKernel(loaded.notebook, path.basename(nbPath));
  assertHasCode(loaded.notebook, path.basename(nbPath));
  const sandbox = withProjectDefault(sandboxRequestFrom(values, ctx), nbPath);
  if (sandbox.data) validateDataMount(sandbox.data);
  const name = path.basename(nbPath).replace(/\.ipynb$/i, '');
  const outDir = path.resolve(ctx.cwd, values['out-dir'] ?? path.join('nbmodernize-out', name));
  fs.mkdirSync(outDir, { recursive: true });
  return { nbPath, name, loaded, sandbox, outDir };
}
