/**
 * The host's view of a sandbox's process tree (/proc), for a warm sandbox that outlives its
 * notebooks: after each notebook, everything its kernel left running (a background `sleep`, a
 * joblib worker, a daemon that double-forked) is killed, and only the server stays. Orphans in
 * the sandbox are re-parented to the sandbox's own init (bwrap is PID 1 of its PID namespace), so
 * they stay descendants of the process we started and cannot slip out of the sweep.
 */
import fs from 'node:fs';

export interface ProcInfo { pid: number; ppid: number; state: string }

function readProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // comm may hold spaces and parentheses: the fields we want follow the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(name), ppid: Number(rest[1]), state: rest[0] ?? '' });
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

/** A process's command line, arguments joined by spaces ('' once it has exited). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** A process's identity: its pid and start time (a later process given the same pid differs). */
export interface ProcessId { pid: number; start: string }

function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** pid's identity now, or undefined once it has exited. */
export function processId(pid: number): ProcessId | undefined {
  const f = statFields(pid);
  return f?.[19] === undefined ? undefined : { pid, start: f[19] };
}

/**
 * Whether the process is still running: not exited, not a zombie, not replaced by another under
 * the same pid. Read from /proc at the moment of asking, so it knows of a kill before Node has
 * handled the exit of our child that holds it (a sandbox's bwrap exits after its server does).
 */
export function isRunning(id: ProcessId): boolean {
  const f = statFields(id.pid);
  return f !== undefined && f[0] !== 'Z' && f[0] !== 'X' && f[19] === id.start;
}

/** Every descendant of root (not root itself), parents before children. */
export function descendants(root: number, procs: ProcInfo[] = readProcs()): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/**
 * Kill every descendant of root except the processes `keep` picks and the chain of processes
 * leading to each. Repeats until nothing is left, since a process may fork while its
 * siblings are being killed. Returns how many processes were killed.
 */
export function sweepDescendants(root: number, keep: (p: ProcInfo) => boolean, rounds = 5): number {
  let killed = 0;
  for (let i = 0; i < rounds; i++) {
    const procs = readProcs();
    const tree = descendants(root, procs);
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const spared = new Set<number>();
    for (const p of tree) {
      if (!keep(p)) continue;
      // The kept process and its ancestors up to root (the sandbox's init, a shell, prlimit...).
      for (let q: ProcInfo | undefined = p; q && q.pid !== root; q = byPid.get(q.ppid)) spared.add(q.pid);
    }
    // Zombies are dead already; their parent (the server, or the sandbox's init) reaps them.
    const victims = tree.filter((p) => !spared.has(p.pid) && p.state !== 'Z');
    if (!victims.length) return killed;
    for (const v of victims) {
      try {
        process.kill(v.pid, 'SIGKILL');
        killed++;
      } catch { /* already gone */ }
    }
  }
  return killed;
}
