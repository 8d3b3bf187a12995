/**
 * The commands and the top-level help. Each line of the help is the command module's own
 * `summary` export, so adding or renaming a command cannot leave the help behind.
 */
import type { CommandModule } from './context.js';

/** Subcommand name -> module under ./commands (loaded lazily so `scan` never pays for the executor). */
export const COMMANDS = ['run', 'modernize', 'scan', 'fix', 'rules', 'check', 'audit', 'worker', 'queue', 'report', 'review', 'env'] as const;

export type CommandName = (typeof COMMANDS)[number];

export function isCommand(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}

export function loadCommand(name: CommandName): Promise<CommandModule> {
  return import(`./commands/${name}.js`) as Promise<CommandModule>;
}

export async function usageText(load: (name: CommandName) => Promise<Pick<CommandModule, 'summary'>> = loadCommand): Promise<string> {
  const width = Math.max(...COMMANDS.map((c) => c.length)) + 2;
  const lines = await Promise.all(COMMANDS.map(async (name) => {
    let summary: string;
    try {
      summary = (await load(name)).summary;
    } catch {
      summary = '(not available in this build)';
    }
    return `  ${name.padEnd(width)}${summary}`;
  }));
  return `nbmodernize — run old Kaggle-era notebooks in one fixed modern Python environment and modernize their code

Usage: nbmodernize <command> [options]

Commands:
${lines.join('\n')}

Run "nbmodernize <command> --help" for a command's options. Global: --log-level LEVEL, --log-file FILE.
Environment: NBMODERNIZE_CACHE_DIR (default $XDG_CACHE_HOME/nbmodernize or ~/.cache/nbmodernize).`;
}
