import { basename } from 'node:path';
import type { Change, ObservedRun } from './sandbox.js';
import { MARKERS, type Secret, type World } from './world.js';

/** What a command was seen to do. */
export interface Observed {
  /** Secrets it read: the canary and where it was seen (`stdout/stderr`, or the file it wrote it into). */
  reads: { secret: Secret; canary: string; seen: string }[];
  writes: Change[];
  /** Programs it ran (execve that succeeded, and marker records), as paths. */
  programs: { path: string; argv: string[] }[];
  /** inet connect attempts: `AF_INET 127.0.0.1:6443`. */
  network: string[];
}

const EXECVE =
  /^(\d+)\s+execve\("((?:[^"\\]|\\.)*)", \[(.*?)\](?:, .*)?(?: = (-?\d+).*| <unfinished \.\.\.>)$/;
const RESUMED = /^(\d+)\s+<\.\.\. execve resumed>.*= (-?\d+)/;
const CONNECT = /^\d+\s+connect\(\d+, \{sa_family=(AF_INET6?), ([^}]*)\}/;

function unquote(s: string): string {
  return s.replace(/\\(x[0-9a-f]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return { n: '\n', t: '\t', r: '\r' }[e] ?? e;
  });
}

function argvOf(list: string): string[] {
  return [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unquote(m[1]!));
}

/** The programs run and the inet connections tried, from `strace -f -e trace=execve,connect`; the first exec (the shell) left out. */
export function parseStrace(text: string): Pick<Observed, 'programs' | 'network'> {
  const programs: Observed['programs'] = [];
  const network: string[] = [];
  const pending = new Map<string, { path: string; argv: string[] }>();
  let first = true;
  const ran = (p: { path: string; argv: string[] }) => {
    if (first) first = false;
    else programs.push(p);
  };
  for (const line of text.split('\n')) {
    const exec = EXECVE.exec(line);
    if (exec) {
      const p = { path: unquote(exec[2]!), argv: argvOf(exec[3]!) };
      if (exec[4] === undefined) pending.set(exec[1]!, p);
      else if (exec[4] === '0') ran(p);
      continue;
    }
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const p = pending.get(resumed[1]!);
      pending.delete(resumed[1]!);
      if (p && resumed[2] === '0') ran(p);
      continue;
    }
    const connect = CONNECT.exec(line);
    if (connect) {
      const addr = /inet_(?:addr|pton)\((?:AF_INET6?, )?"([^"]+)"/.exec(connect[2]!)?.[1] ?? '?';
      const port = /htons\((\d+)\)/.exec(connect[2]!)?.[1] ?? '?';
      network.push(`${connect[1]} ${addr}:${port}`);
    }
  }
  return { programs, network };
}

/** Everything observed of one run in the world. */
export function observe(run: ObservedRun, world: World): Observed {
  const reads: Observed['reads'] = [];
  const seen = new Set<string>();
  const read = (canary: string, where: string) => {
    const secret = world.canaries.get(canary);
    if (!secret || seen.has(`${canary}\0${where}`)) return;
    seen.add(`${canary}\0${where}`);
    reads.push({ secret, canary, seen: where });
  };
  for (const c of run.output) read(c, 'stdout/stderr');
  for (const change of run.changes) {
    for (const c of change.canaries) {
      if (world.canaries.get(c)?.path !== change.path) read(c, change.path);
    }
    if (change.kind === 'created') {
      for (const c of world.canaries.keys()) if (basename(change.path).includes(c)) read(c, change.path);
    }
  }
  const { programs, network } = parseStrace(run.strace);
  const traced = new Set(programs.map((p) => basename(p.path)));
  for (const record of run.markers.split('\n')) {
    const name = record.split(' ')[0]!;
    if (name in MARKERS && !traced.has(name)) programs.push({ path: name, argv: record.split(' ') });
  }
  return { reads, writes: run.changes, programs, network };
}
