// Runs inside the effect sandbox's namespaces, as root (pid 2; the set-up bash is pid 1 and reaps orphans).
// For each command line: a fresh copy of the world when the last line changed it, the line run by real bash as
// the unprivileged user under `strace -f`, then what it left behind: a content-hash snapshot of /tmp (the world
// lives there) compared with the pristine one, the canaries in its output and in every file it changed, the
// marker log. One JSON result per line on stdout.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const batch = process.argv[2];
const config = JSON.parse(readFileSync(`/run/${batch}/config.json`, 'utf8'));
const { world, template, uid, lines, timeoutMs, env, canaries, markerLog, outputLimit } = config;
const SCRATCH = '/tmp';
const OUT = '/run/o';

function snapshot(root) {
  const out = new Map();
  const walk = (path, depth) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return;
    }
    const mode = st.mode & 0o7777;
    if (st.isDirectory()) {
      out.set(path, { type: 'd', mode });
      if (depth > 40) return;
      let names = [];
      try {
        names = readdirSync(path);
      } catch {}
      for (const name of names) walk(join(path, name), depth + 1);
    } else if (st.isSymbolicLink()) {
      let target = '';
      try {
        target = readlinkSync(path);
      } catch {}
      out.set(path, { type: 'l', mode: 0, hash: target });
    } else if (st.isFile()) {
      let hash = '?';
      try {
        hash = createHash('sha1').update(readFileSync(path)).digest('hex');
      } catch {}
      out.set(path, { type: 'f', mode, hash, mtime: Math.round(st.mtimeMs) });
    } else out.set(path, { type: 'o', mode });
  };
  walk(root, 0);
  return out;
}

function sh(args) {
  return spawnSync(args[0], args.slice(1), { stdio: 'ignore' });
}

function reset() {
  sh(['/bin/sh', '-c', `rm -rf ${SCRATCH}/* ${SCRATCH}/.[!.]* ${SCRATCH}/..?*`]);
  sh(['mkdir', '-p', world]);
  sh(['cp', '-a', `${template}/.`, world]);
  sh(['chmod', '755', world]);
  sh(['chmod', '1777', SCRATCH]);
}

function readLimited(path, limit) {
  try {
    const buf = readFileSync(path);
    return buf.length > limit ? buf.subarray(0, limit) : buf;
  } catch {
    return Buffer.alloc(0);
  }
}

function canariesIn(text) {
  return canaries.filter((c) => text.includes(c));
}

reset();
const pristine = snapshot(SCRATCH);
let dirty = false;
const child = [
  '/run/sys/setpriv',
  `--reuid=${uid}`,
  `--regid=${uid}`,
  '--clear-groups',
  '--no-new-privs',
  '--',
  '/run/sys/bash',
  '--norc',
  '--noprofile',
  '-c',
  `ulimit -t 4 -f 20000 -u 1000 2>/dev/null; exec /run/sys/strace -f -qq -e trace=execve,connect -e signal=none -s 300 -o ${OUT}/strace /run/sys/bash --norc --noprofile -c "$1"`,
  'line',
];

for (let i = 0; i < lines.length; i++) {
  if (dirty) reset();
  rmSync(join(OUT, 'strace'), { force: true });
  writeFileSync(markerLog, '');
  chmodSync(markerLog, 0o666);
  const stdout = openSync(join(OUT, 'stdout'), 'w');
  const stderr = openSync(join(OUT, 'stderr'), 'w');
  const started = performance.now();
  const r = spawnSync(child[0], [...child.slice(1), lines[i]], {
    cwd: `${world}/project`,
    env,
    stdio: ['ignore', stdout, stderr],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  const ms = performance.now() - started;
  closeSync(stdout);
  closeSync(stderr);
  try {
    process.kill(-1, 'SIGKILL');
  } catch {}
  const output = Buffer.concat([
    readLimited(join(OUT, 'stdout'), outputLimit),
    readLimited(join(OUT, 'stderr'), outputLimit),
  ]).toString('latin1');
  const after = snapshot(SCRATCH);
  const changes = [];
  for (const [path, entry] of after) {
    const before = pristine.get(path);
    let kind;
    if (!before) kind = 'created';
    else if (before.type !== entry.type || before.hash !== entry.hash) kind = 'written';
    else if (before.mode !== entry.mode) kind = 'metadata';
    else if (before.mtime !== entry.mtime) kind = 'touched';
    else continue;
    const change = { path, kind, type: entry.type, canaries: [] };
    if (entry.type === 'f' && kind !== 'metadata' && kind !== 'touched') {
      change.canaries = canariesIn(readLimited(path, outputLimit).toString('latin1'));
    }
    changes.push(change);
  }
  for (const path of pristine.keys())
    if (!after.has(path)) changes.push({ path, kind: 'deleted', canaries: [] });
  dirty = changes.length > 0;
  process.stdout.write(
    `${JSON.stringify({
      i,
      ms,
      timedOut: r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGKILL',
      status: r.status,
      output: canariesIn(output),
      changes,
      strace: readLimited(join(OUT, 'strace'), 400_000).toString('utf8'),
      markers: readLimited(markerLog, 20_000).toString('utf8'),
    })}\n`,
  );
}
