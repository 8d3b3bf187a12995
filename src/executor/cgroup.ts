/**
 * Resource limits for sandboxes that are plain processes (bwrap, host): a cgroup per sandbox
 * when this machine lets us create one (v2 unified or v1 memory/pids/cpu controllers), so the
 * kernel and everything it forks share one memory limit and an OOM kill is attributable.
 * RLIMIT-based limits are the fallback: they are per process and coarser.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';

export interface CgroupLimits { memoryBytes?: number; pids?: number; cpus?: number }

export interface Cgroup {
  version: 1 | 2;
  /** Files to write a pid into so it (and its future children) join every controller. */
  procsFiles: string[];
  /** Peak memory usage seen (bytes), if the kernel reports it. */
  peakMemory(): number | undefined;
  /**
   * How many times the kernel OOM-killed something in this group (v1 without an oom_kill count:
   * how often the limit was hit). A warm sandbox compares it before and after each notebook.
   */
  oomKills(): number;
  /** Kill what is left and remove the group; idempotent. */
  destroy(): void;
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readNumber(file: string): number | undefined {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

export function createCgroup(name: string, limits: CgroupLimits): Cgroup | undefined {
  if (!limits.memoryBytes && !limits.pids && !limits.cpus) return undefined;
  try {
    if (fs.existsSync(path.join(ROOT, 'cgroup.controllers'))) return createV2(name, limits);
    return createV1(name, limits);
  } catch {
    return undefined;
  }
}

function createV2(name: string, limits: CgroupLimits): Cgroup | undefined {
  if (!writable(ROOT)) return undefined;
  const dir = path.join(ROOT, `nbmodernize-${name}`);
  fs.mkdirSync(dir);
  if (limits.memoryBytes) {
    fs.writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
    try { fs.writeFileSync(path.join(dir, 'memory.swap.max'), '0'); } catch { /* no swap accounting */ }
  }
  if (limits.pids) fs.writeFileSync(path.join(dir, 'pids.max'), String(limits.pids));
  if (limits.cpus) fs.writeFileSync(path.join(dir, 'cpu.max'), `${Math.round(limits.cpus * 100000)} 100000`);
  return {
    version: 2,
    procsFiles: [path.join(dir, 'cgroup.procs')],
    peakMemory: () => readNumber(path.join(dir, 'memory.peak')),
    oomKills: () => {
      try {
        return Number(/oom_kill\s+(\d+)/.exec(fs.readFileSync(path.join(dir, 'memory.events'), 'utf8'))?.[1] ?? 0);
      } catch {
        return 0;
      }
    },
    destroy: () => destroyDirs([dir]),
  };
}

function createV1(name: string, limits: CgroupLimits): Cgroup | undefined {
  const dirs: string[] = [];
  const mk = (controller: string) => {
    const base = path.join(ROOT, controller);
    if (!fs.existsSync(base) || !writable(base)) return undefined;
    const dir = path.join(base, `nbmodernize-${name}`);
    fs.mkdirSync(dir);
    dirs.push(dir);
    return dir;
  };
  const mem = limits.memoryBytes ? mk('memory') : undefined;
  if (limits.memoryBytes && !mem) return undefined;
  if (mem && limits.memoryBytes) {
    fs.writeFileSync(path.join(mem, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    try { fs.writeFileSync(path.join(mem, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)); } catch { /* swap accounting off */ }
  }
  const pids = limits.pids ? mk('pids') : undefined;
  if (pids && limits.pids) fs.writeFileSync(path.join(pids, 'pids.max'), String(limits.pids));
  const cpu = limits.cpus ? mk('cpu') : undefined;
  if (cpu && limits.cpus) {
    fs.writeFileSync(path.join(cpu, 'cpu.cfs_period_us'), '100000');
    fs.writeFileSync(path.join(cpu, 'cpu.cfs_quota_us'), String(Math.round(limits.cpus * 100000)));
  }
  return {
    version: 1,
    procsFiles: dirs.map((d) => path.join(d, 'cgroup.procs')),
    peakMemory: () => (mem ? readNumber(path.join(mem, 'memory.max_usage_in_bytes')) : undefined),
    oomKills: () => {
      if (!mem) return 0;
      try {
        const oc = fs.readFileSync(path.join(mem, 'memory.oom_control'), 'utf8');
        const m = /oom_kill\s+(\d+)/.exec(oc);
        if (m) return Number(m[1]);
      } catch { /* fall through */ }
      return readNumber(path.join(mem, 'memory.failcnt')) ?? 0;
    },
    destroy: () => destroyDirs(dirs),
  };
}

function destroyDirs(dirs: string[]): void {
  for (const dir of dirs) {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const pids = fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
        for (const pid of pids) {
          try { process.kill(Number(pid), 'SIGKILL'); } catch { /* already gone */ }
        }
        fs.rmdirSync(dir);
        break;
      } catch (err: any) {
        if (err?.code === 'ENOENT') break;
        // EBUSY while killed processes are still exiting: wait a little and retry.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      }
    }
  }
}

/** OOM kills inside a docker container's cgroup (cgroupfs or systemd driver, v1 or v2). */
export function containerOomKilled(containerId: string): boolean {
  const candidates = [
    `${ROOT}/memory/docker/${containerId}/memory.oom_control`,
    `${ROOT}/memory/system.slice/docker-${containerId}.scope/memory.oom_control`,
    `${ROOT}/docker/${containerId}/memory.events`,
    `${ROOT}/system.slice/docker-${containerId}.scope/memory.events`,
  ];
  for (const f of candidates) {
    try {
      const m = /oom_kill\s+(\d+)/.exec(fs.readFileSync(f, 'utf8'));
      if (m) return Number(m[1]) > 0;
    } catch { /* not this layout */ }
  }
  return false;
}
