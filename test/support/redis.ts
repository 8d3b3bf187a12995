/**
 * A real Redis (Debian's redis-server) for the queue tests: loopback only, a free port, its own
 * temporary directory, append-only file on with an fsync per write, so a kill -9 of the server
 * loses nothing that was acknowledged. Restartable on the same port and data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export class TestRedis {
  private proc?: ChildProcess;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-redis-'));

  private constructor(readonly port: number, private readonly o: { tls?: { cert: string; key: string }; password?: string }) {}

  /** tls: the port speaks TLS only (rediss://); password: requirepass. */
  static async start(o: { tls?: { cert: string; key: string }; password?: string } = {}): Promise<TestRedis> {
    const r = new TestRedis(await freePort(), o);
    await r.up();
    return r;
  }

  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  /** Starts the server and resolves once it accepts connections (it says so on stdout). */
  async up(): Promise<void> {
    const listen = this.o.tls
      ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', this.o.tls.cert, '--tls-key-file', this.o.tls.key, '--tls-ca-cert-file', this.o.tls.cert, '--tls-auth-clients', 'no']
      : ['--port', String(this.port)];
    const auth = this.o.password ? ['--requirepass', this.o.password] : [];
    const proc = spawn('redis-server', [...listen, ...auth, '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 30_000);
      proc.stdout!.on('data', (d) => {
        out += d;
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  }

  /** kill -9 (or a clean SIGTERM) and wait for the process to be gone. */
  async down(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await gone;
  }

  async stop(): Promise<void> {
    await this.down('SIGTERM');
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
