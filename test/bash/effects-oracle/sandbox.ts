import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findProgram,
  inBatches,
  PATH_DIRS,
  remountReadOnly,
  runInNamespaces,
  SANDBOX_UID,
} from '../oracle/sandbox.js';
import { buildWorld, MARKER_LOG, type World } from './world.js';

/**
 * Runs command lines with REAL programs against a canary world. Each batch of lines gets mount, pid and network
 * namespaces (util-linux `unshare`, as root) where every mount is read-only but a private tmpfs on /tmp (which
 * holds the world at the path it has on the host) and the batch's output folders; a Node driver (driver.mjs)
 * runs each line as uid 65534 without privileges (`setpriv --no-new-privs`), with CPU, file-size and process
 * limits, under `strace -f`, and reports what it observed. A batch that stops answering is killed by a wall-clock
 * watchdog (the pid namespace takes every process with it) and resumed after the line it hung on.
 */

export interface ObservedRun {
  ms: number;
  timedOut: boolean;
  /** The batch died on this line. */
  aborted: boolean;
  status: number | null;
  /** Canaries found in stdout or stderr. */
  output: string[];
  changes: Change[];
  strace: string;
  markers: string;
}

export interface Change {
  path: string;
  kind: 'created' | 'written' | 'metadata' | 'touched' | 'deleted';
  type?: 'f' | 'd' | 'l' | 'o';
  canaries: string[];
}

export interface EffectSandboxOptions {
  workers?: number;
  batchSize?: number;
  lineTimeoutMs?: number;
}

const SETUP = `set -e
root=$1
batch=$2
mount -n --bind "$root" /run
M="/run/sys/mount -n"
# Node may live under /tmp (a version fetched into a temporary folder): reach it before /tmp is covered.
$M --bind "$3" /run/sys/node
$M -t tmpfs -o mode=1777,size=256m tmpfs /tmp
$M --bind "/run/$batch/o" /run/o
$M --bind "/run/$batch/mlog" /run/mlog
${remountReadOnly(['/tmp', '/run/o', '/run/mlog'])}
cd /
/run/sys/node /run/sys/driver.mjs "$batch" 2>/run/o/driver.err
`;

export class EffectSandbox {
  readonly root: string;
  readonly world: World;
  private batches = 0;
  private readonly strace: string;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'automode-effects-'));
    chmodSync(this.root, 0o755);
    const sys = join(this.root, 'sys');
    mkdirSync(sys);
    for (const tool of ['bash', 'mount', 'setpriv', 'strace']) {
      const from = findProgram(tool);
      if (!from) throw new Error(`${tool} not found`);
      copyFileSync(from, join(sys, tool));
      chmodSync(join(sys, tool), 0o755);
    }
    this.strace = join(sys, 'strace');
    writeFileSync(join(sys, 'setup.sh'), SETUP);
    writeFileSync(join(sys, 'node'), '');
    copyFileSync(join(import.meta.dirname, 'driver.mjs'), join(sys, 'driver.mjs'));
    for (const dir of ['o', 'mlog']) mkdirSync(join(this.root, dir));
    this.world = buildWorld(join(this.root, 'world'), join(this.root, 'markers'));
    // The template (and each batch's configuration, which lists the canaries) only root reads in the sandbox.
    chmodSync(this.world.root, 0o700);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The environment the commands run with. */
  env(): Record<string, string> {
    return {
      PATH: ['/run/markers', ...PATH_DIRS].join(':'),
      HOME: this.world.home,
      USER: 'nobody',
      LOGNAME: 'nobody',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: '/tmp',
    };
  }

  /** Runs every line; each result is handed over as it comes. */
  async run(
    lines: readonly string[],
    options: EffectSandboxOptions,
    onRun: (index: number, run: ObservedRun) => void,
  ): Promise<void> {
    const workers = options.workers ?? 2;
    const batchSize = options.batchSize ?? 400;
    const timeout = options.lineTimeoutMs ?? 10_000;
    await inBatches(lines.length, workers, batchSize, (from, end) =>
      this.batch(lines, from, end, timeout, onRun),
    );
  }

  private async batch(
    lines: readonly string[],
    from: number,
    end: number,
    timeout: number,
    onRun: (index: number, run: ObservedRun) => void,
  ): Promise<number> {
    const name = `b${this.batches++}`;
    const dir = join(this.root, name);
    mkdirSync(dir, { mode: 0o700 });
    for (const sub of ['o', 'mlog']) {
      mkdirSync(join(dir, sub), { recursive: true });
      chmodSync(join(dir, sub), 0o777);
    }
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        world: this.world.root,
        template: '/run/world',
        uid: SANDBOX_UID,
        lines: lines.slice(from, end),
        timeoutMs: timeout,
        env: this.env(),
        canaries: [...this.world.canaries.keys()],
        markerLog: MARKER_LOG,
        outputLimit: 4_000_000,
        strace: this.strace,
      }),
    );
    let done = 0;
    await runInNamespaces(
      [join(this.root, 'sys/bash'), join(this.root, 'sys/setup.sh'), this.root, name, process.execPath],
      { PATH: PATH_DIRS.join(':'), LANG: 'C.UTF-8' },
      timeout + 30_000,
      (line) => {
        onRun(from + done, { ...(JSON.parse(line) as Omit<ObservedRun, 'aborted'>), aborted: false });
        done++;
      },
    );
    if (done === 0) {
      // A driver that never started (node unreachable in the namespaces, a broken copy) is a set-up failure, not
      // a line that hung: say why instead of reporting every line aborted.
      const err = readIfThere(join(dir, 'o/driver.err')).trim();
      if (err) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`effect sandbox: the driver did not start: ${err.slice(0, 2000)}`);
      }
    }
    if (from + done < end) {
      onRun(from + done, {
        ms: timeout,
        timedOut: true,
        aborted: true,
        status: null,
        output: [],
        changes: [],
        strace: '',
        markers: '',
      });
      done++;
    }
    rmSync(dir, { recursive: true, force: true });
    return from + done;
  }
}

function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
