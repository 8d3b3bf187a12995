/**
 * Stored results a cell's current source cannot have produced. IPython shows an `execute_result`
 * only for a cell whose last statement is an expression with a value; a stored one under a cell that
 * ends in an assignment, an import, a loop, `print(...)` or a pandas call with `inplace=True` (which
 * returns None) was printed by an earlier version of the cell, which the author edited and did not
 * re-run. Such a value is stale: reported, never judged.
 *
 * Read from the source with a few regular expressions (the oracle has no parser): the last top-level
 * statement is the text from the last unindented, non-comment line to the end.
 */

/** Statements that never have a value (keywords at the start of a top-level line). */
const STATEMENT = /^(import|from|def|class|for|while|if|elif|else|with|try|except|finally|del|assert|raise|return|pass|global|nonlocal|async|@)\b/;
/** `name = ...`, `a.b[c] += ...`, `x: int = ...` (not `==`, not a keyword argument inside a call). */
const ASSIGNMENT = /^[\w.[\]'", ]+?\s*(?:[-+*/%&|^@]|\/\/|\*\*|>>|<<)?=(?!=)/;
/** Calls whose value is None whatever they are given. */
const NONE_CALL = /^(print|exec|display|plt\.(show|close|clf|tight_layout)|sns\.set(_style|_palette|_context|_theme)?|warnings\.filterwarnings|np\.random\.seed|random\.seed)\s*\(/;

/** The last top-level statement of a cell's source (comments and IPython lines aside), or undefined. */
export function lastStatement(source: string): string | undefined {
  // IPython removes an indentation common to all lines before compiling.
  const code = source.split('\n').filter((l) => l.trim() && !/^\s*#/.test(l));
  const indent = Math.min(...code.map((l) => /^\s*/.exec(l)![0].length));
  const lines = source.split('\n').map((l) => (Number.isFinite(indent) && indent > 0 ? l.slice(Math.min(indent, /^\s*/.exec(l)![0].length)) : l));
  let end = lines.length;
  while (end > 0 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
  for (let i = end - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (/^\S/.test(l) && !l.startsWith('#') && !/^[)\]}]/.test(l)) return lines.slice(i, end).filter((x) => !/^\s*#/.test(x)).join('\n');
  }
  return undefined;
}

/** True when the cell's last statement cannot give IPython a value to show as its result. */
export function cannotHaveResult(source: string): boolean {
  const last = lastStatement(source);
  if (last === undefined) return true;
  const head = last.trimStart();
  if (/^[%!]/.test(head)) return false; // a magic may return a value
  if (STATEMENT.test(head) || ASSIGNMENT.test(head) || NONE_CALL.test(head)) return true;
  // A trailing semicolon suppresses the result; a pandas method called with inplace=True returns None.
  if (/;\s*$/.test(last)) return true;
  return /^[\w.[\]'"]+\.\w+\(/.test(head) && /\binplace\s*=\s*True\b/.test(last) && /\)\s*$/.test(last);
}
