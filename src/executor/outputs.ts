/**
 * Turning IOPub messages into nbformat 4 outputs, the way Jupyter front ends do: consecutive
 * stream chunks merge, clear_output(wait=True) clears on the next output, update_display_data
 * rewrites earlier outputs in place. Outputs are bounded: huge text is cut in the middle with a
 * visible marker, and runaway numbers of outputs are capped.
 */
import type { Output, StreamOutput } from '../core/notebook.js';
import type { IOPubMessage } from './jupyter-client.js';

export interface OutputLimits {
  /** Max characters of stream text per cell (head and tail are kept). */
  maxStreamChars: number;
  /** Max number of outputs per cell. */
  maxOutputs: number;
  /** Max size of one rich output (e.g. a giant HTML table). */
  maxRichBytes: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxStreamChars: 200_000, maxOutputs: 500, maxRichBytes: 5_000_000 };

export function truncationMarker(dropped: number, unit = 'characters'): string {
  return `\n... [nbmodernize: ${dropped} ${unit} of output truncated] ...\n`;
}

export class OutputCollector {
  readonly outputs: Output[] = [];
  truncated = false;
  private clearPending = false;
  private readonly displayIds = new Map<string, number[]>();
  private droppedOutputs = 0;
  private streamChars = new Map<number, number>();

  constructor(private readonly limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {}

  handle(msg: IOPubMessage): void {
    const type = msg.header.msg_type;
    const c: any = msg.content;
    switch (type) {
      case 'stream':
        this.flushClear();
        this.addStream(c.name === 'stderr' ? 'stderr' : 'stdout', String(c.text ?? ''));
        return;
      case 'display_data':
      case 'execute_result': {
        this.flushClear();
        const out: Output = type === 'execute_result'
          ? { output_type: 'execute_result', execution_count: c.execution_count ?? null, data: this.boundData(c.data ?? {}), metadata: c.metadata ?? {} }
          : { output_type: 'display_data', data: this.boundData(c.data ?? {}), metadata: c.metadata ?? {} };
        const id = c.transient?.display_id;
        const at = this.push(out);
        if (id && at >= 0) this.displayIds.set(id, [...(this.displayIds.get(id) ?? []), at]);
        return;
      }
      case 'update_display_data': {
        const id = c.transient?.display_id;
        for (const i of (id && this.displayIds.get(id)) || []) {
          const o = this.outputs[i] as any;
          o.data = this.boundData(c.data ?? {});
          o.metadata = c.metadata ?? {};
        }
        return;
      }
      case 'clear_output':
        if (c.wait) this.clearPending = true;
        else this.clear();
        return;
      case 'error':
        this.flushClear();
        this.push({ output_type: 'error', ename: String(c.ename ?? ''), evalue: String(c.evalue ?? ''), traceback: (c.traceback ?? []).map(String) });
        return;
      default:
        return; // status, execute_input, comm_*: not outputs
    }
  }

  /** Add a synthetic output (e.g. our own timeout or kernel-death note). */
  addError(ename: string, evalue: string, traceback: string[] = []): void {
    this.push({ output_type: 'error', ename, evalue, traceback: traceback.length ? traceback : [`${ename}: ${evalue}`] });
  }

  finish(): Output[] {
    if (this.droppedOutputs > 0) {
      this.outputs.push({ output_type: 'stream', name: 'stderr', text: truncationMarker(this.droppedOutputs, 'outputs') });
    }
    return this.outputs;
  }

  private flushClear(): void {
    if (this.clearPending) {
      this.clearPending = false;
      this.clear();
    }
  }

  private clear(): void {
    this.outputs.length = 0;
    this.displayIds.clear();
    this.streamChars.clear();
  }

  private push(out: Output): number {
    if (this.outputs.length >= this.limits.maxOutputs) {
      this.droppedOutputs += 1;
      this.truncated = true;
      return -1;
    }
    this.outputs.push(out);
    return this.outputs.length - 1;
  }

  private addStream(name: 'stdout' | 'stderr', text: string): void {
    const last = this.outputs[this.outputs.length - 1];
    if (last && last.output_type === 'stream' && last.name === name) {
      last.text = this.boundStream(this.outputs.length - 1, String(last.text) + text);
      return;
    }
    const at = this.push({ output_type: 'stream', name, text: '' });
    if (at >= 0) (this.outputs[at] as StreamOutput).text = this.boundStream(at, text);
  }

  /** Keep the head and the tail: the start shows what ran, the end shows how it finished. */
  private boundStream(at: number, text: string): string {
    const max = this.limits.maxStreamChars;
    if (text.length <= max) return text;
    this.truncated = true;
    const previouslyDropped = this.streamChars.get(at) ?? 0;
    const marker = /\n\.\.\. \[nbmodernize: (\d+) characters of output truncated\] \.\.\.\n/;
    let already = previouslyDropped;
    const m = marker.exec(text);
    let body = text;
    if (m) {
      already = Number(m[1]);
      body = text.slice(0, m.index) + text.slice(m.index + m[0].length);
    }
    const keepHead = Math.floor(max / 2);
    const keepTail = max - keepHead;
    const dropped = already + (body.length - keepHead - keepTail);
    this.streamChars.set(at, dropped);
    return body.slice(0, keepHead) + truncationMarker(dropped) + body.slice(body.length - keepTail);
  }

  private boundData(data: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [mime, value] of Object.entries(data)) {
      const text = Array.isArray(value) ? value.join('') : value;
      const size = typeof text === 'string' ? text.length : JSON.stringify(text ?? null).length;
      if (size > this.limits.maxRichBytes && mime !== 'text/plain') {
        this.truncated = true;
        continue; // drop the oversized rich form; text/plain (kept, bounded below) still shows something
      }
      if (mime === 'text/plain' && typeof text === 'string' && text.length > this.limits.maxStreamChars) {
        this.truncated = true;
        const half = Math.floor(this.limits.maxStreamChars / 2);
        out[mime] = text.slice(0, half) + truncationMarker(text.length - 2 * half) + text.slice(text.length - half);
        continue;
      }
      out[mime] = value;
    }
    if (Object.keys(out).length === 0) out['text/plain'] = `[nbmodernize: output of ${Object.keys(data).join(', ')} dropped, over ${this.limits.maxRichBytes} bytes]`;
    return out;
  }
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
