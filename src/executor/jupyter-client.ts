/**
 * The one module that imports @jupyterlab/services (and the transports it needs: undici for
 * HTTP, ws for websockets). Everything else in the executor sees the small KernelHandle API
 * below, so the Jupyter client library could be swapped without touching execution logic.
 *
 * Sandboxed servers listen on a Unix socket (their network namespace is empty), so both HTTP
 * and websocket traffic are routed to the socket path; the host part of the URL is ignored.
 */
import { ServerConnection, KernelAPI, KernelConnection } from '@jupyterlab/services';
import type { KernelMessage, Kernel } from '@jupyterlab/services';
import { Agent, fetch as undiciFetch, Request as UndiciRequest, Headers as UndiciHeaders } from 'undici';
import WebSocket from 'ws';
import type { JupyterEndpoint } from './types.js';
import { errorMessage } from '../core/errors.js';
import { log } from '../core/log.js';

export type IOPubMessage = KernelMessage.IIOPubMessage;
export interface ExecuteReply {
  status: 'ok' | 'error' | 'aborted';
  executionCount: number | null;
  /** ISO timestamps from the kernel: when execution started (reply metadata) and the reply's own header date. */
  started?: string;
  finished?: string;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  userExpressions: Record<string, any>;
}
export type KernelLiveness = 'alive' | 'dead' | 'restarting' | 'disconnected';

export interface ExecuteRequest {
  code: string;
  silent?: boolean;
  storeHistory?: boolean;
  userExpressions?: Record<string, string>;
}

export interface KernelHandle {
  readonly id: string;
  execute(req: ExecuteRequest, onIOPub: (msg: IOPubMessage) => void): Promise<ExecuteReply>;
  interrupt(): Promise<void>;
  restart(): Promise<void>;
  shutdown(): Promise<void>;
  /** Close the connection and leave the kernel running (its sandbox is about to be killed). */
  disconnect(): Promise<void>;
  /** Fires when the kernel dies, is auto-restarted by the server, or the connection is lost. */
  onLivenessChange(cb: (state: KernelLiveness, detail: string) => void): () => void;
  readonly liveness: KernelLiveness;
}

export class JupyterClient {
  readonly settings: ServerConnection.ISettings;
  private readonly agent?: Agent;

  constructor(readonly endpoint: JupyterEndpoint) {
    const socketPath = endpoint.socketPath;
    this.agent = socketPath ? new Agent({ connect: { socketPath } }) : new Agent();
    const agent = this.agent;
    const fetchImpl = ((input: any, init?: any) => undiciFetch(input, { ...init, dispatcher: agent })) as any;
    const base = endpoint.baseUrl.endsWith('/') ? endpoint.baseUrl : `${endpoint.baseUrl}/`;
    this.settings = ServerConnection.makeSettings({
      baseUrl: base,
      wsUrl: base.replace(/^http/, 'ws'),
      token: endpoint.token,
      appendToken: true,
      fetch: fetchImpl,
      Request: UndiciRequest as any,
      Headers: UndiciHeaders as any,
      WebSocket: (socketPath ? unixWebSocket(socketPath) : WebSocket) as any,
    });
  }

  /** GET /api — used to wait for a server to come up. */
  async ping(): Promise<boolean> {
    try {
      const res = await ServerConnection.makeRequest(`${this.settings.baseUrl}api`, {}, this.settings);
      return res.ok;
    } catch {
      return false;
    }
  }

  async kernelSpecNames(): Promise<string[]> {
    const res = await ServerConnection.makeRequest(`${this.settings.baseUrl}api/kernelspecs`, {}, this.settings);
    if (!res.ok) throw new Error(`GET /api/kernelspecs failed: HTTP ${res.status}`);
    const body: any = await res.json();
    return Object.keys(body.kernelspecs ?? {});
  }

  async startKernel(name = 'python3'): Promise<KernelHandle> {
    const model = await KernelAPI.startNew({ name }, this.settings);
    const conn = new KernelConnection({ model, serverSettings: this.settings, handleComms: false });
    await waitConnected(conn, 30_000);
    return new JupyterKernel(conn, () => this.ping());
  }

  /** Download a file the notebook wrote (remote servers: there is no shared directory). */
  async getFile(path: string): Promise<{ content: string; format: string } | undefined> {
    const url = `${this.settings.baseUrl}api/contents/${encodeURI(path)}?content=1`;
    const res = await ServerConnection.makeRequest(url, {}, this.settings);
    if (!res.ok) return undefined;
    return (await res.json()) as any;
  }

  async listDir(path: string): Promise<Array<{ name: string; type: string; path: string }>> {
    const url = `${this.settings.baseUrl}api/contents/${encodeURI(path)}?content=1`;
    const res = await ServerConnection.makeRequest(url, {}, this.settings);
    if (!res.ok) return [];
    const body: any = await res.json();
    return Array.isArray(body.content) ? body.content : [];
  }

  /** Ids of the kernels the server holds. */
  async kernelIds(): Promise<string[]> {
    return (await KernelAPI.listRunning(this.settings)).map((k) => k.id);
  }

  /** DELETE /api/kernels/{id}; a kernel that is already gone is not an error. */
  async deleteKernel(id: string): Promise<void> {
    await KernelAPI.shutdownKernel(id, this.settings).catch((err) => {
      if (!/404|not found/i.test(String(err?.message ?? err))) throw err;
    });
  }

  async close(): Promise<void> {
    await this.agent?.close().catch(() => undefined);
  }
}

function unixWebSocket(socketPath: string) {
  return class UnixSocketWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      const u = new URL(url);
      super(`ws+unix://${socketPath}:${u.pathname}${u.search}`, protocols);
    }
  };
}

function waitConnected(conn: KernelConnection, timeoutMs: number): Promise<void> {
  if (conn.connectionStatus === 'connected') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      conn.connectionStatusChanged.disconnect(onChange);
      reject(new Error(`kernel websocket did not connect within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    const onChange = (_: unknown, status: Kernel.ConnectionStatus) => {
      if (status === 'connected') {
        clearTimeout(timer);
        conn.connectionStatusChanged.disconnect(onChange);
        resolve();
      }
    };
    conn.connectionStatusChanged.connect(onChange);
  });
}

class JupyterKernel implements KernelHandle {
  private listeners = new Set<(state: KernelLiveness, detail: string) => void>();
  liveness: KernelLiveness = 'alive';

  constructor(private readonly conn: KernelConnection, private readonly serverAnswers: () => Promise<boolean>) {
    // After the server auto-restarts a dead kernel (out of memory, killpg), the library calls
    // reconnect() in a promise chain nobody handles; once the run ends and the connection is
    // disposed, that promise rejects, and unhandled it killed the audit worker (the next notebook
    // was then recorded as crashed). Only our own restart() wants that error.
    const reconnect = conn.reconnect.bind(conn);
    conn.reconnect = () => {
      const p = reconnect();
      return this.restartingOnPurpose ? p : p.catch((err) => void log.debug(`kernel reconnect after an auto-restart: ${errorMessage(err)}`));
    };
    conn.statusChanged.connect((_, status) => {
      // The server's restarter reports a crashed kernel as "restarting" (we see "autorestarting").
      if (status === 'dead') this.setLiveness('dead', 'kernel status is dead');
      else if (status === 'autorestarting' || status === 'restarting') {
        if (!this.restartingOnPurpose) this.setLiveness('restarting', 'the kernel process died and the server restarted it');
      } else if ((status === 'idle' || status === 'busy') && this.liveness === 'restarting' && this.restartingOnPurpose) {
        this.liveness = 'alive';
      }
    });
    conn.connectionStatusChanged.connect((_, status) => {
      if (conn.isDisposed || this.shuttingDown) return;
      if (status === 'disconnected') this.setLiveness('disconnected', 'lost the connection to the Jupyter server');
      else if (status === 'connecting') void this.checkServer();
    });
  }

  /**
   * The websocket dropped and the library is reconnecting, with back-off, for up to about two
   * minutes before it gives up. A server that died (killed, OOM) would hold the cell that long, or
   * until its timeout: ask the server directly, and if it does not answer for ~2.5 s, it is gone.
   */
  private async checkServer(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      if (this.conn.connectionStatus === 'connected' || this.conn.isDisposed || this.shuttingDown) return;
      if (await this.serverAnswers()) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    if (this.conn.connectionStatus !== 'connected' && !this.conn.isDisposed && !this.shuttingDown) {
      this.setLiveness('disconnected', 'the Jupyter server stopped answering (it died or was killed)');
    }
  }

  private restartingOnPurpose = false;
  private shuttingDown = false;

  get id(): string {
    return this.conn.id;
  }

  private setLiveness(state: KernelLiveness, detail: string): void {
    if (this.liveness === state) return;
    this.liveness = state;
    for (const cb of this.listeners) cb(state, detail);
  }

  onLivenessChange(cb: (state: KernelLiveness, detail: string) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  async execute(req: ExecuteRequest, onIOPub: (msg: IOPubMessage) => void): Promise<ExecuteReply> {
    const future = this.conn.requestExecute(
      {
        code: req.code,
        silent: req.silent ?? false,
        store_history: req.storeHistory ?? !req.silent,
        user_expressions: req.userExpressions ?? {},
        allow_stdin: false,
        stop_on_error: false,
      },
      true,
    );
    future.onIOPub = (msg) => onIOPub(msg);
    const reply = (await future.done) as KernelMessage.IExecuteReplyMsg;
    const content: any = reply.content;
    const metadata: any = reply.metadata ?? {};
    return {
      status: content.status,
      executionCount: content.execution_count ?? null,
      started: typeof metadata.started === 'string' ? metadata.started : undefined,
      finished: typeof reply.header.date === 'string' ? reply.header.date : undefined,
      ename: content.ename,
      evalue: content.evalue,
      traceback: content.traceback,
      userExpressions: content.user_expressions ?? {},
    };
  }

  async interrupt(): Promise<void> {
    await this.conn.interrupt();
  }

  async restart(): Promise<void> {
    this.restartingOnPurpose = true;
    try {
      await this.conn.restart();
      this.liveness = 'alive';
    } finally {
      this.restartingOnPurpose = false;
    }
  }

  async disconnect(): Promise<void> {
    this.shuttingDown = true;
    await this.settleReconnect();
    this.conn.dispose();
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await this.settleReconnect();
    try {
      await this.conn.shutdown();
    } catch {
      // A dead server cannot shut its kernel down; the sandbox teardown kills it anyway.
    } finally {
      this.conn.dispose();
    }
  }

  /**
   * After the server auto-restarts a dead kernel, the library reconnects in a promise nobody
   * awaits; disposing mid-reconnect turns it into an unhandled rejection. Let it settle first.
   */
  private async settleReconnect(): Promise<void> {
    // A server that stopped answering will not take the connection back: nothing to wait for.
    if (this.conn.connectionStatus === 'connecting' && this.liveness !== 'disconnected') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 10_000);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.conn.connectionStatusChanged.connect((_, status) => {
          if (status !== 'connecting') done();
        });
      });
    }
  }
}
