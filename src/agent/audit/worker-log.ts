/** A worker process's stderr into this process's log, each line at the level it was logged with. */
import { log } from '../../core/log.js';

export function forwardWorkerLog(stderr: NodeJS.ReadableStream | null | undefined, label: string): void {
  stderr?.on('data', (d: Buffer) => {
    for (const line of String(d).split('\n')) {
      if (!line.trim()) continue;
      // Worker log lines keep their level ("<timestamp> <level> <message>"); anything else is info.
      const m = /^\S+ (error|warn|info|verbose|debug|silly) (.*)$/.exec(line);
      log.log(m ? m[1]! : 'info', `[${label}] ${m ? m[2] : line}`);
    }
  });
}
