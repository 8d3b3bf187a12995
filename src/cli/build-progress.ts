import type { BuildEvent } from '../executor/environment/build.js';
import type { CliContext } from './context.js';

/**
 * Phases with elapsed seconds on stderr: one line rewritten in place on a terminal, one plain line
 * per phase otherwise (CI logs). Subprocess lines only feed the terminal's status text; the full
 * output is in build.log.
 */
export function buildProgress(ctx: CliContext): { onEvent: (e: BuildEvent) => void; stop: () => void } {
  const start = Date.now();
  let phase: { name: string; message: string; since: number } | undefined;
  let detail = '';
  let timer: NodeJS.Timeout | undefined;
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  const columns = Math.max(40, (process.stderr.columns || 100) - 1);

  const draw = () => {
    if (!phase) return;
    const text = `[${secs(Date.now() - start).padStart(6)}] ${phase.name}: ${phase.message}${detail ? ` · ${detail}` : ''}`;
    ctx.stderr(`\r\x1b[K${text.slice(0, columns)}`);
  };
  const closePhase = () => {
    if (!phase) return;
    if (ctx.isTTY) ctx.stderr(`\r\x1b[K[${secs(Date.now() - start).padStart(6)}] ${phase.name} done (${secs(Date.now() - phase.since)})\n`);
    phase = undefined;
  };

  return {
    onEvent(e) {
      if (e.type === 'phase') {
        closePhase();
        phase = { name: e.phase, message: e.message, since: Date.now() };
        detail = '';
        if (ctx.isTTY) {
          draw();
          timer ??= setInterval(draw, 500);
          timer.unref();
        } else {
          ctx.stderr(`[${secs(Date.now() - start).padStart(6)}] ${e.phase}: ${e.message}\n`);
        }
      } else if (e.type === 'log') {
        detail = e.line.replace(/^I: /, '').trim().slice(0, 80);
      } else {
        closePhase();
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (ctx.isTTY && phase) ctx.stderr('\n');
      phase = undefined;
    },
  };
}

