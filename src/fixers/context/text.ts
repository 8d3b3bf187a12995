/** Text helpers for prompts: ANSI stripping, traceback trimming, token estimates. */

/** ~4 characters per token: the estimate used for every budget in the context builder. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles).
const ANSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Cut the middle out of a long text, keeping its head and (larger) tail. */
export function trimMiddle(text: string, maxChars: number, what = 'characters'): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.35);
  const tail = maxChars - head;
  const cutStart = text.lastIndexOf('\n', head) > head / 2 ? text.lastIndexOf('\n', head) : head;
  const tailStart = text.indexOf('\n', text.length - tail) >= 0 && text.indexOf('\n', text.length - tail) < text.length - tail / 2
    ? text.indexOf('\n', text.length - tail) + 1
    : text.length - tail;
  const omitted = tailStart - cutStart;
  return `${text.slice(0, cutStart)}\n... [${omitted} ${what} omitted] ...\n${text.slice(tailStart)}`;
}

export interface TrimOptions {
  /** Hard cap on the result. Default 3000. */
  maxChars?: number;
  /** Frames kept from the start (the notebook cell's own frames come first). Default 2. */
  headFrames?: number;
  /** Frames kept from the end (where the error is raised). Default 2. */
  tailFrames?: number;
}

const SEPARATOR = /^-{20,}\s*$/;

/**
 * A traceback as IPython gives it (a list of entries, each possibly multi-line, with ANSI
 * colours) made readable and short: colours and separator rules removed, the middle library
 * frames collapsed, the final `Error: message` always kept, the whole bounded in characters.
 */
export function trimTraceback(tb: string[] | string, opts: TrimOptions = {}): string {
  const maxChars = opts.maxChars ?? 3000;
  const headFrames = opts.headFrames ?? 2;
  const tailFrames = opts.tailFrames ?? 2;
  if (!Array.isArray(tb)) {
    const text = stripAnsi(tb).replace(/\r\n?/g, '\n').split('\n').filter((l) => !SEPARATOR.test(l)).join('\n').trim();
    return trimMiddle(text, maxChars);
  }
  let entries = tb.map((e) => stripAnsi(e).replace(/\r\n?/g, '\n').replace(/\s+$/, ''));
  entries = entries.filter((e) => e.trim() !== '' && !SEPARATOR.test(e));
  entries = entries.map((e) => e.split('\n').filter((l) => !SEPARATOR.test(l)).join('\n'));
  if (entries.length === 0) return '';
  // [header?] frames... message
  const last = entries[entries.length - 1]!;
  let header: string | undefined;
  let frames = entries.slice(0, -1);
  if (frames.length && /Traceback \(most recent call last\)/.test(frames[0]!) && frames[0]!.split('\n').length <= 2) {
    header = frames[0];
    frames = frames.slice(1);
  }
  if (frames.length > headFrames + tailFrames + 1) {
    const omitted = frames.length - headFrames - tailFrames;
    frames = [...frames.slice(0, headFrames), `... [${omitted} frame${omitted === 1 ? '' : 's'} omitted] ...`, ...frames.slice(-tailFrames)];
  }
  const text = [header, ...frames, last].filter((x): x is string => x !== undefined).join('\n');
  if (text.length <= maxChars) return text;
  // Keep the final message whole (bounded), trim the frames.
  const msg = last.length > maxChars / 2 ? trimMiddle(last, Math.floor(maxChars / 2)) : last;
  const body = [header, ...frames].filter((x): x is string => x !== undefined).join('\n');
  return `${trimMiddle(body, Math.max(200, maxChars - msg.length - 1))}\n${msg}`;
}
