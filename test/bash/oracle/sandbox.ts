import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs command lines in real bash with nothing real behind them. Each batch of lines gets a mount, network and pid
 * namespace (util-linux `unshare`, as root) where:
 * - every bin folder is covered by a folder of recording stubs (so `rm`, `/bin/rm`, `/usr/bin/env` all reach a
 *   stub that logs its argv and exits 0);
 * - every other mount is remounted read-only, /tmp is a private tmpfs, and the only writable places are the
 *   batch's home, project and output folders under /run/w;
 * - bash runs as uid/gid 65534 without capabilities (`setpriv`), so builtins cannot write root-owned host files.
 * Each line runs in a subshell of one driver bash as `eval LINE` with xtrace on fd 9 (one file a line), stdin from
 * /dev/null, a CPU limit and a file-size limit; its process group is killed when it ends. A line that hangs without using CPU is
 * caught by a wall-clock watchdog that kills the batch (the pid namespace takes every process with it) and
 * restarts the batch after that line.
 */

export const SANDBOX_UID = 65534;
/** Inside the namespace. */
export const WORK = '/run/w';
export const HOME = `${WORK}/home`;
export const PROJECT = `${WORK}/project`;
export const PATH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
/** Folders of programs covered by stubs when they exist (symlinked ones like /bin are covered through their target). */
const PROGRAM_DIRS = [
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
  '/usr/lib/git-core',
  '/usr/libexec',
];
/** First character of PS4; bash repeats it once per level of indirection. */
export const TRACE_MARK = '\x02';
const PS4 = `${TRACE_MARK}T `;

export interface StubCall {
  /** The path the stub was run as (`/usr/bin/rm`, `/run/w/project/scripts/ls`). */
  path: string;
  /** Arguments after argv[0]. */
  args: string[];
}

export interface LineRun {
  /** The raw xtrace text of the line. */
  trace: string;
  stubs: StubCall[];
  /** The line was stopped by the watchdog or took the batch down with it. */
  aborted: boolean;
  /** Wall-clock time the line took, in milliseconds (the watchdog's limit when aborted). */
  ms: number;
}

export interface SandboxOptions {
  /** Parallel batches (namespaces). */
  workers?: number;
  batchSize?: number;
  /** Wall-clock time a line may take before its batch is killed. */
  lineTimeoutMs?: number;
}

/** Why the sandbox cannot run here, or undefined when it can. */
export function sandboxUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return 'not running as root (the mount namespace set-up needs it)';
  }
  for (const tool of ['unshare', 'setpriv', 'mount', 'bash']) {
    if (!findProgram(tool)) return `util-linux/bash program ${tool} not found`;
  }
  const probe = spawnSync('unshare', ['-m', '-n', '-p', '-f', '--mount-proc', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return `namespaces unavailable: unshare -m -n -p failed: ${probe.stderr.trim()}`;
  return undefined;
}

export function findProgram(name: string): string | undefined {
  for (const dir of PATH_DIRS) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** The covered folders, each once (by real path), with the names of the programs in them. */
function programDirs(): { dir: string; names: string[] }[] {
  const out: { dir: string; names: string[] }[] = [];
  const seen = new Set<string>();
  for (const dir of PROGRAM_DIRS) {
    if (!existsSync(dir)) continue;
    const real = realpathSync(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ dir: real, names: readdirSync(real) });
  }
  return out;
}

/** Programs whose stub goes on to run the copied bash with xtrace, so that what they run is recorded. */
const SHELLS = new Set(['bash']);

/**
 * A compiled stub when a C compiler is at hand (about 5 times faster to start than a bash script);
 * ORACLE_SCRIPT_STUBS=1 forces the script stubs.
 */
function compileStub(target: string, shell: boolean): boolean {
  if (process.env.ORACLE_SCRIPT_STUBS) return false;
  const source = join(import.meta.dirname, 'stub.c');
  const defines = [`-DLOG="${WORK}/out/stubs"`];
  if (shell)
    defines.push(
      '-DSHELL="/run/sys/bash"',
      `-DPS4="\\${TRACE_MARK.charCodeAt(0).toString(8).padStart(3, '0')}T "`,
    );
  for (const extra of [['-static'], []]) {
    const r = spawnSync('cc', ['-O2', ...extra, ...defines, '-o', target, source], { stdio: 'ignore' });
    if (r.status === 0) return true;
  }
  return false;
}

const STUB = `#!/run/sys/bash
printf '%s\\0' S "$0" "$#" "$@" >> ${WORK}/out/stubs
exit 0
`;

const SHELL_STUB = `#!/run/sys/bash
printf '%s\\0' S "$0" "$#" "$@" >> ${WORK}/out/stubs
BASH_XTRACEFD=9 PS4=$'${PS4}' exec /run/sys/bash -x "$@"
`;

/** Shell lines (run as root in the namespace, with \`$M\` the mount command) making every mount but `keep` read-only. */
export function remountReadOnly(keep: readonly string[]): string {
  return `keep=" ${keep.join(' ')} "
while read -r _ _ _ _ mp _; do
  mp=$(printf '%b' "$mp")
  case "$keep" in *" $mp "*) continue ;; esac
  $M -o remount,bind,ro "$mp" 2>/dev/null || echo "oracle: could not remount $mp read-only" >&2
done < /proc/self/mountinfo`;
}

const SETUP = `set -e
root=$1
mount -n --bind "$root" /run
M="/run/sys/mount -n"
$M --bind "/run/$2" ${WORK}
$M -t tmpfs -o mode=1777,size=64m tmpfs /tmp
n=0
while IFS= read -r dir; do $M --bind "/run/stubs/$n" "$dir"; n=$((n + 1)); done < /run/sys/dirs
${remountReadOnly([WORK, '/tmp'])}
cd ${PROJECT}
exec /run/sys/setpriv --reuid=${SANDBOX_UID} --regid=${SANDBOX_UID} --clear-groups --no-new-privs \\
  /run/sys/bash --norc --noprofile /run/sys/driver.sh 2>/dev/null
`;

/**
 * Each line runs in a forked subshell (`eval`, as the agent's shell runs a command) rather than a new bash: four
 * times cheaper. The subshell leaves job control, so what the line puts in the background stays in its process
 * group. The first traced record is the `eval` itself.
 */
const DRIVER = `exec 6>>${WORK}/out/stubs
set -m
i=0
while IFS= read -r -d '' line; do
  printf '%s\\0' L "$i" >&6
  started=$EPOCHREALTIME
  (
    ulimit -t 1 -f 256 -v 1000000 -u 2000 2>/dev/null
    set +m
    exec 6>&-
    __oracle_line=$line
    unset line i pid started
    BASH_XTRACEFD=9
    PS4=$'${PS4}'
    set -x
    eval "$__oracle_line"
  ) </dev/null >/dev/null 2>&1 9>"${WORK}/out/t$i" &
  pid=$!
  wait "$pid"
  kill -9 -- "-$pid" 2>/dev/null
  printf '%d %s %s\\n' "$i" "$started" "$EPOCHREALTIME"
  i=$((i + 1))
done < ${WORK}/out/lines
`;

/** What the planted shell files (`s.sh`, `~/.bashrc`) run when sourced, each as an argv. */
export const PLANTED_COMMANDS = [
  ['echo', 'sourced'],
  ['echo', 'bashrc'],
];

/** Files of the project and home every batch starts with. */
function populate(work: string): void {
  const project = join(work, 'project');
  const files: Record<string, string> = {
    'home/.ssh/id_rsa': 'PRIVATE KEY\n',
    'home/.gitconfig': '[core]\n\tfsmonitor = touch /tmp/pwned\n',
    'home/.bashrc': 'echo bashrc\n',
    'home/lib/deep/x.txt': 'deep\n',
    'project/.env': 'SECRET=1\n',
    'project/README.md': '# readme\n',
    'project/notes.txt': 'notes\n',
    'project/a.txt': 'a\n',
    'project/b.txt': 'b\n',
    'project/src/main.ts': 'export {};\n',
    'project/src/util.ts': 'export {};\n',
    'project/docs/guide.md': 'guide\n',
    'project/evil/HEAD': 'ref: refs/heads/main\n',
    'project/evil/config': '[core]\n\tfsmonitor = touch /tmp/pwned\n',
    'project/s.sh': 'echo sourced\n',
    'project/a/b/.keep': '',
  };
  for (const [rel, text] of Object.entries(files)) {
    const p = join(work, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }
  mkdirSync(join(project, 'scripts'), { recursive: true });
  for (const name of ['ls', 'git', 'cat']) {
    writeFileSync(join(project, 'scripts', name), STUB, { mode: 0o755 });
  }
  symlinkSync(`${HOME}/lib/deep`, join(project, 'a/b/deps'));
  symlinkSync('../home', join(project, 'home-link'));
  symlinkSync('.env', join(project, 'env-link'));
  mkdirSync(join(work, 'out'), { recursive: true });
  chownTree(work, SANDBOX_UID);
}

function chownTree(path: string, uid: number): void {
  spawnSync('chown', ['-R', '-h', `${uid}:${uid}`, path]);
}

export class Sandbox {
  readonly root: string;
  private batches = 0;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'automode-oracle-'));
    chmodSync(this.root, 0o755);
    const sys = join(this.root, 'sys');
    mkdirSync(sys);
    for (const tool of ['bash', 'mount', 'setpriv']) {
      const from = findProgram(tool);
      if (!from) throw new Error(`${tool} not found`);
      copyFileSync(from, join(sys, tool));
      chmodSync(join(sys, tool), 0o755);
    }
    writeFileSync(join(sys, 'setup.sh'), SETUP);
    writeFileSync(join(sys, 'driver.sh'), DRIVER);
    const dirs = programDirs();
    writeFileSync(join(sys, 'dirs'), `${dirs.map((d) => d.dir).join('\n')}\n`);
    const stub = join(sys, 'stub');
    if (!compileStub(stub, false)) writeFileSync(stub, STUB, { mode: 0o755 });
    const shellStub = join(sys, 'shell-stub');
    if (!compileStub(shellStub, true)) writeFileSync(shellStub, SHELL_STUB, { mode: 0o755 });
    dirs.forEach(({ names }, n) => {
      const stubs = join(this.root, 'stubs', String(n));
      mkdirSync(stubs, { recursive: true });
      for (const name of names) linkSync(SHELLS.has(name) ? shellStub : stub, join(stubs, name));
    });
    mkdirSync(join(this.root, 'w'));
    chownSync(this.root, 0, 0);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /**
   * Runs every line; the result for line i is at index i. With `onRun`, each result is handed over as its batch
   * ends (and not kept), so that checking overlaps running.
   */
  async run(
    lines: string[],
    options: SandboxOptions = {},
    onRun?: (index: number, run: LineRun) => void,
  ): Promise<LineRun[]> {
    const workers = options.workers ?? 2;
    const batchSize = options.batchSize ?? 1500;
    const timeout = options.lineTimeoutMs ?? 10_000;
    const results: LineRun[] = new Array(lines.length);
    await inBatches(lines.length, workers, batchSize, (from, end) =>
      this.batch(lines, from, end, timeout, results, onRun),
    );
    return results;
  }

  /** Runs lines[from, end) in one namespace; returns where to go on (end, or after a line that hung). */
  private async batch(
    lines: string[],
    from: number,
    end: number,
    timeout: number,
    results: LineRun[],
    onRun: ((index: number, run: LineRun) => void) | undefined,
  ): Promise<number> {
    const name = `b${this.batches++}`;
    const work = join(this.root, name);
    mkdirSync(work);
    populate(work);
    const out = join(work, 'out');
    const chunk = lines.slice(from, end);
    writeFileSync(join(out, 'lines'), chunk.map((l) => `${l}\0`).join(''));
    const { done, times } = await runNamespace(this.root, name, timeout);
    const stubs = parseStubs(readOrEmpty(join(out, 'stubs')));
    const ran = Math.min(chunk.length, done + 1);
    for (let k = 0; k < ran; k++) {
      const run: LineRun = {
        trace: readOrEmpty(join(out, `t${k}`)),
        stubs: stubs.get(k) ?? [],
        aborted: k === done,
        ms: times[k] ?? timeout,
      };
      if (onRun) onRun(from + k, run);
      else results[from + k] = run;
    }
    rmSync(work, { recursive: true, force: true });
    return from + ran;
  }
}

/**
 * Runs `count` lines in batches of `batchSize`, `workers` batches at a time. `batch(from, end)` runs lines
 * [from, end) and returns where to go on: `end`, or the line after one that took its batch down.
 */
export async function inBatches(
  count: number,
  workers: number,
  batchSize: number,
  batch: (from: number, end: number) => Promise<number>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const start = next;
      const end = Math.min(count, start + batchSize);
      next = end;
      let from = start;
      while (from < end) from = await batch(from, end);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Runs one batch; resolves with the index of the line that did not finish (the driver died or hung on it), or
 * the number of lines when all finished, and the time each finished line took.
 */
function runNamespace(
  root: string,
  name: string,
  timeout: number,
): Promise<{ done: number; times: number[] }> {
  const times: number[] = [];
  return runInNamespaces(
    [join(root, 'sys/bash'), join(root, 'sys/setup.sh'), root, name],
    { PATH: PATH_DIRS.join(':'), HOME, USER: 'nobody', LANG: 'C.UTF-8', TERM: 'dumb' },
    timeout,
    (line) => {
      const [, start, end] = line.split(' ');
      times.push((Number(end) - Number(start)) * 1000);
    },
  ).then((done) => ({ done, times }));
}

/**
 * Runs `command` as root in new mount, network and pid namespaces (`unshare`); each line it prints on stdout is
 * handed to `onLine`. A wall-clock watchdog kills it (the pid namespace takes every process with it) when no
 * line comes for `timeout` ms. Resolves with the number of lines; rejects when it failed before its first line.
 */
export function runInNamespaces(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  timeout: number,
  onLine: (line: string) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn('unshare', ['-m', '-n', '-p', '-f', '--mount-proc', ...command], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let finished = 0;
    let buffered = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, timeout);
    };
    arm();
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (data: string) => {
      buffered += data;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const part of parts) onLine(part);
      finished += parts.length;
      arm();
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (data: string) => {
      if (stderr.length < 10_000) stderr += data;
    });
    child.on('error', reject);
    child.on('close', () => {
      if (timer) clearTimeout(timer);
      if (
        finished === 0 &&
        /oracle:|mount:|setpriv:|unshare:|Error/.test(stderr) &&
        !/remount/.test(stderr)
      ) {
        reject(new Error(`sandbox set-up failed: ${stderr}`));
        return;
      }
      resolve(finished);
    });
  });
}

/** Stub log: records `S path argc args...` and line markers `L i`, every field NUL-terminated. */
export function parseStubs(log: string): Map<number, StubCall[]> {
  const fields = log.split('\0');
  const out = new Map<number, StubCall[]>();
  let current: StubCall[] = [];
  let i = 0;
  while (i < fields.length) {
    const tag = fields[i];
    if (tag === 'L') {
      current = [];
      out.set(Number(fields[i + 1]), current);
      i += 2;
    } else if (tag === 'S') {
      const argc = Number(fields[i + 2]);
      if (!Number.isInteger(argc) || argc < 0) {
        i++;
        continue;
      }
      current.push({ path: fields[i + 1] ?? '', args: fields.slice(i + 3, i + 3 + argc) });
      i += 3 + argc;
    } else {
      i++;
    }
  }
  return out;
}
