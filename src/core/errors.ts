/**
 * Typed errors with the CLI exit code each one maps to. Lower layers throw these;
 * only src/cli turns them into a one-line message and a process exit code.
 */
export const ExitCode = {
  ok: 0,
  /** The notebook ran but a cell raised (or `scan` found something). */
  notebookError: 1,
  usage: 2,
  malformedNotebook: 3,
  unsupportedKernel: 4,
  missingData: 5,
  noCodeCells: 6,
  environment: 7,
  cellTimeout: 8,
  budgetExceeded: 9,
  kernelDied: 10,
  /** audit --fix stopped starting notebooks: the LLM provider failed for N notebooks in a row. */
  llmUnavailable: 11,
  interrupted: 130,
} as const;
export type ExitCodeName = keyof typeof ExitCode;

export class NbmError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** A short machine-readable kind, echoed in --json error output. */
    readonly kind: string,
    /** What the user can do about it, printed after the message. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UsageError extends NbmError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, 'usage', hint);
  }
}

export class NotebookInputError extends NbmError {
  constructor(
    message: string,
    kind: 'malformed-notebook' | 'unsupported-kernel' | 'no-code-cells' | 'missing-data',
    hint?: string,
  ) {
    const code = {
      'malformed-notebook': ExitCode.malformedNotebook,
      'unsupported-kernel': ExitCode.unsupportedKernel,
      'no-code-cells': ExitCode.noCodeCells,
      'missing-data': ExitCode.missingData,
    }[kind];
    super(message, code, kind, hint);
  }
}

/** The environment or a sandbox cannot be built or started (missing host tool, docker down, ...). */
export class EnvironmentError extends NbmError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.environment, 'environment', hint);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
