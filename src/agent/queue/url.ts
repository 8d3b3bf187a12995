/**
 * The queue's address: redis://[user:password@]host:port/db or rediss:// (TLS). Parsed here once
 * so the password only ever lives in the connection options and never in a log line or an error.
 */
import { UsageError } from '../../core/errors.js';

export interface QueueConnection {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL without credentials: the only form that may be logged or printed. */
  display: string;
}

export function parseQueueUrl(raw: string): QueueConnection {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Never echo the input: it may hold a password.
    throw new UsageError('--queue must be a URL like redis://HOST:PORT/DB or rediss://USER:PASSWORD@HOST:PORT/DB');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new UsageError(`--queue must use redis:// or rediss:// (got ${u.protocol}//)`);
  const dbText = u.pathname.replace(/^\//, '') || '0';
  const db = Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new UsageError(`--queue: the database must be a number >= 0 (got "${dbText}")`);
  const port = u.port ? Number(u.port) : 6379;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return {
    host,
    port,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    tls: u.protocol === 'rediss:',
    display: `${u.protocol}//${u.username || u.password ? '***@' : ''}${u.host}/${db}`,
  };
}
