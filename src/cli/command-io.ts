/**
 * What every command does alike at its edges, kept in one place so the commands cannot drift apart:
 * strict flag parsing with -h/--help answered the same way (help text on stdout, exit 0, after the
 * flags were checked), and --json output in one format (two-space indented, a final newline).
 */
import type { CliContext } from './context.js';
import { parseFlags } from './options.js';

/** -h/--help, which commandFlags adds to every command's flags. */
const HELP_FLAG = { help: { type: 'boolean', short: 'h', default: false } } as const;

/**
 * The command's flags (parseFlags, strict: an unknown flag is a usage error even with --help).
 * With -h/--help the help text is printed here and `helpShown` is true: the command returns
 * ExitCode.ok at once.
 */
export function commandFlags(
  args: string[],
  options: Record<string, any>,
  command: string,
  help: string,
  ctx: CliContext,
): { values: Record<string, any>; positionals: string[]; helpShown: boolean } {
  const { values, positionals } = parseFlags(args, { ...options, ...HELP_FLAG }, command);
  if (values.help) ctx.stdout(`${help}\n`);
  return { values, positionals, helpShown: Boolean(values.help) };
}

/** A command's --json output on stdout. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout(JSON.stringify(value, null, 2) + '\n');
}
