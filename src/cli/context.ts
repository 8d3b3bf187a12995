/** What a command gets from the outside world; only src/cli touches process.* directly. */
export interface CliContext {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** true when stderr is a terminal: render progress bars instead of plain lines. */
  isTTY: boolean;
  /** Aborted on Ctrl-C / SIGTERM so commands tear sandboxes down before exiting. */
  signal: AbortSignal;
}

export type CommandModule = {
  /** Returns the process exit code. Throws NbmError for user-facing failures. */
  run(args: string[], ctx: CliContext): Promise<number>;
  summary: string;
};
