/**
 * Renders executor events: on a terminal, one status line per cell that updates with elapsed
 * time while the cell runs; otherwise plain log lines (CI logs, pipes). Always on stderr.
 */
import type { ExecEvent } from '../executor/run-notebook.js';
import type { CliContext } from './context.js';

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  return n >= 1 << 30 ? `${(n / (1 << 30)).toFixed(1)} GiB` : `${Math.round(n / (1 << 20))} MiB`;
}

const MARK: Record<string, string> = { ok: '✓', error: '✗', timeout: '⏱', 'budget-exceeded': '⏱', 'kernel-died': '☠', 'not-run': '·' };

export function execProgress(ctx: CliContext, label: string, quiet = false): { onEvent: (e: ExecEvent) => void; stop: () => void } {
  let ticker: NodeJS.Timeout | undefined;
  let current: { text: string; start: number } | undefined;
  const line = (t: string) => ctx.stderr(`${t}\n`);
  const clear = () => {
    if (ctx.isTTY && current) ctx.stderr('\r\x1b[2K');
  };
  const stopTicker = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
  };
  return {
    stop: () => {
      stopTicker();
      clear();
      current = undefined;
    },
    onEvent: (e) => {
      if (quiet) return;
      switch (e.type) {
        case 'sandbox-ready':
          line(`${label}: sandbox ${e.kind} ready in ${formatMs(e.startMs)} (${e.reason})`);
          break;
        case 'kernel-ready':
          line(`${label}: kernel ready in ${formatMs(e.ms)}`);
          break;
        case 'cell-start': {
          const text = `[${e.codeIndex + 1}/${e.total}] cell ${e.index}: ${e.preview}`;
          current = { text, start: Date.now() };
          if (!ctx.isTTY) line(`▶ ${text}`);
          else {
            ctx.stderr(`${text} …`);
            stopTicker();
            ticker = setInterval(() => {
              if (current) ctx.stderr(`\r\x1b[2K${current.text} … ${formatMs(Date.now() - current.start)}`);
            }, 500);
            ticker.unref();
          }
          break;
        }
        case 'cell-end': {
          stopTicker();
          clear();
          const r = e.record;
          const detail = r.error ? `  ${r.error.ename}: ${r.error.evalue.split('\n')[0].slice(0, 120)}` : '';
          line(`${MARK[r.status] ?? '?'} [${r.codeIndex + 1}/${e.total}] cell ${r.index} ${r.status} ${formatMs(r.durationMs)} ${formatBytes(r.peakMemoryBytes)}${detail}`);
          current = undefined;
          break;
        }
        case 'run-end':
          line(`${label}: ${e.result.status} in ${formatMs(e.result.wallMs)} (${e.result.cellExecutions} cell executions, sandbox ${e.result.sandbox})`);
          break;
      }
    },
  };
}
