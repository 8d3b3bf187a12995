import winston from 'winston';

/**
 * The one winston module. Logs go to stderr (never stdout, which belongs to --json output)
 * and optionally to a file. Library code calls `log`; the CLI decides level and destinations.
 */
export const log = winston.createLogger({
  level: 'warn',
  format: winston.format.combine(
    winston.format.timestamp(),
    winston.format.printf((i) => `${i.timestamp} ${i.level} ${i.message}`),
  ),
  transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn', 'info', 'verbose', 'debug', 'silly'] })],
});

export function configureLogging(opts: { level?: string; file?: string }): void {
  if (opts.level) log.level = opts.level;
  if (opts.file) {
    log.add(new winston.transports.File({ filename: opts.file, level: 'debug', format: winston.format.json() }));
  }
}
