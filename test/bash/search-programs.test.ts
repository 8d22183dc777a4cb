import { spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { CP_MODULE } from '../../src/bash/programs/cp.js';
import { GREP_MODULE } from '../../src/bash/programs/grep.js';
import type { ProgramModule } from '../../src/bash/programs/module.js';
import { RG_MODULE } from '../../src/bash/programs/rg.js';
import { TREE_MODULE } from '../../src/bash/programs/tree.js';
import type { FileEffect, SimpleCommand } from '../../src/bash/types.js';

/**
 * grep, rg, tree and cp run for real in a world seeded with canaries: a project with a hidden `.env`, a hidden
 * folder, a file its `.gitignore` leaves out, and links to a key outside it. For every command generated from
 * each program's read-only allow-list (cp: every option) and operand forms, a canary the program prints or
 * copies must come from a file the analysis declares it reads (that file, or a folder read whole that reaches
 * it), or the effects must be unknown; and every file it writes must be declared written.
 */

/** Every option spelling with every base and operand form (`npm run oracle`), where the suite takes a share. */
const FULL = process.env.SEARCH_ORACLE_FULL === '1';

const installed = (program: string) => spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0;
const PROGRAMS = ['grep', 'rg', 'tree', 'cp'].every(installed);

let root: string;
let world: string;

const CANARY = /CANARY_[A-Z]+/g;

/** The canary's file, by the path the project reaches it through. */
const SOURCES: Record<string, string> = {
  CANARY_ENV: 'proj/.env',
  CANARY_HID: 'proj/src/.hid/x',
  CANARY_IGN: 'proj/ign.txt',
  CANARY_SSH: 'home/.ssh/id_rsa',
  CANARY_TPL: 'proj/tmpl/.git/hooks/pre-commit',
};

function plant(at: string): void {
  const file = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(at, rel)), { recursive: true });
    writeFileSync(path.join(at, rel), text);
  };
  for (const [canary, rel] of Object.entries(SOURCES)) file(rel, `${canary}\n`);
  file('proj/README.md', 'readme\n');
  file('proj/src/a.txt', 'plain\n');
  file('proj/.gitignore', 'ign.txt\n');
  file('proj/pats.txt', 'CANARY\n');
  file('proj/.git/HEAD', 'ref: refs/heads/main\n');
  mkdirSync(path.join(at, 'proj/docs'), { recursive: true });
  symlinkSync('../../home/.ssh/id_rsa', path.join(at, 'proj/docs/key'));
  symlinkSync('../../home/.ssh', path.join(at, 'proj/docs/sshdir'));
}

beforeAll(async () => {
  await loadBash();
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'automode-search-')));
  world = path.join(root, 'world');
  plant(world);
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

interface Entry {
  kind: 'file' | 'link' | 'dir';
  stamp: string;
}

function snapshot(at: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const st = lstatSync(full);
      const rel = path.relative(at, full);
      if (st.isSymbolicLink()) out.set(rel, { kind: 'link', stamp: readlinkSync(full) });
      else if (st.isDirectory()) {
        out.set(rel, { kind: 'dir', stamp: '' });
        walk(full);
      } else out.set(rel, { kind: 'file', stamp: `${st.ino}:${st.size}:${st.mtimeMs}` });
    }
  };
  walk(at);
  return out;
}

interface Run {
  output: string;
  /** Files created or changed, relative to the run's root. */
  written: string[];
  /** Canaries found in regular files created or changed. */
  copied: string[];
}

/** A command line as bash runs it (a string), or an argument vector run without a shell. */
type Line = string | string[];

function run(line: Line, at: string): Run {
  const before = snapshot(at);
  const [program, ...args] = typeof line === 'string' ? ['bash', '-c', line] : line;
  const result = spawnSync(program!, args, {
    cwd: path.join(at, 'proj'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(at, 'home'), LC_ALL: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 10_000,
    encoding: 'utf8',
  });
  const after = snapshot(at);
  const written: string[] = [];
  const copied: string[] = [];
  for (const [rel, entry] of after) {
    const was = before.get(rel);
    if (was && was.kind === entry.kind && was.stamp === entry.stamp) continue;
    if (entry.kind === 'dir' && was?.kind === 'dir') continue;
    written.push(rel);
    if (entry.kind === 'file') copied.push(...(readFileSync(path.join(at, rel), 'utf8').match(CANARY) ?? []));
  }
  return { output: `${result.stdout}${result.stderr}`, written, copied };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Whether a declared read reaches the canary's file, as the policy checks a read. */
function readReaches(effect: FileEffect, source: string, at: string): boolean {
  if (!effect.path.static) return true;
  const declared = path.resolve(at, 'proj', effect.path.value);
  if (declared === source || realOrSelf(declared) === source) return true;
  // A folder read whole: the policy walks it without following links, leaving out what the effect says.
  if (!isInside(source, declared) || source === declared) return false;
  const below = path.relative(declared, source).split(path.sep);
  const readsHidden = picomatch([...(effect.readsHiddenMatching ?? [])], { dot: true });
  if (effect.skipsHidden && below.some((name) => name.startsWith('.') && !readsHidden(name))) return false;
  if (effect.respectsGitignore && source === path.join(at, 'proj/ign.txt')) return false;
  return true;
}

function writeCovers(effect: FileEffect, written: string, at: string): boolean {
  if (!effect.path.static) return true;
  return isInside(path.join(at, written), path.resolve(at, 'proj', effect.path.value));
}

function check(line: Line, fresh: boolean): string[] {
  const at = fresh ? path.join(root, 'run') : world;
  if (fresh) {
    rmSync(at, { recursive: true, force: true });
    cpSync(world, at, { recursive: true, verbatimSymlinks: true });
  }
  const analysis = analyze(typeof line === 'string' ? line : line.map(quote).join(' '));
  const cmd: SimpleCommand | undefined = analysis.commands[0];
  const result = run(line, at);
  if (!fresh && result.written.length > 0) {
    rmSync(world, { recursive: true, force: true });
    plant(world);
  }
  if (!cmd?.effectsKnown) return [];
  const problems: string[] = [];
  const shown = typeof line === 'string' ? line : line.map(quote).join(' ');
  const canaries = new Set([...(result.output.match(CANARY) ?? []), ...result.copied]);
  for (const canary of canaries) {
    const source = path.join(at, SOURCES[canary]!);
    const reads = cmd.effects.filter((e) => e.access === 'read' || e.access === 'metadata');
    if (!reads.some((e) => readReaches(e, source, at))) problems.push(`${shown}: ${canary} read undeclared`);
  }
  for (const written of result.written) {
    const writes = cmd.effects.filter((e) => e.access !== 'read' && e.access !== 'metadata');
    if (!writes.some((e) => writeCovers(e, written, at)))
      problems.push(`${shown}: writes ${written} undeclared`);
  }
  return problems;
}

const quote = (word: string) => (/^[\w./:=,+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Option spellings with sample values: short letters and long names alike. */
function spellings(module: ProgramModule, samples: Record<string, string[]>): string[][] {
  const spec = module.spec!;
  const g = spec.grammar;
  const allowed = spec.readOnly?.options;
  const out: string[][] = [];
  const add = (name: string, spelled: string, arity: 'flag' | 'value' | 'optional') => {
    if (allowed && !allowed.has(name)) return;
    if (arity === 'flag') out.push([spelled]);
    else
      for (const value of samples[name] ?? ['x'])
        out.push(arity === 'optional' ? [`${spelled}=${value}`] : [spelled, value]);
    if (arity === 'optional') out.push([spelled]);
  };
  for (const letter of g.flags) add(letter, `-${letter}`, 'flag');
  for (const letter of g.values) add(letter, `-${letter}`, 'value');
  for (const [key, named] of g.long) add(named.name, `--${key}`, named.arity);
  return out;
}

function lines(
  module: ProgramModule,
  options: {
    samples: Record<string, string[]>;
    bases: string[][];
    lead: string[];
    operands: string[][];
    /** Words after the operands (cp's destination). */
    trail?: string[];
  },
): Line[] {
  const program = module.names[0]!;
  const out: Line[] = [...(module.oracle?.cases ?? [])];
  const forms = [...options.operands, ...(module.oracle?.operands ?? []).map((o) => [o])];
  const operandForms = [
    ...new Map(forms.map((o) => [o.join(' '), [...o, ...(options.trail ?? [])]])).values(),
  ];
  const combinations = options.bases.flatMap((base) =>
    operandForms.map((operands) => [base, operands] as const),
  );
  if (FULL) {
    for (const spelled of spellings(module, options.samples))
      for (const [base, operands] of combinations)
        out.push([program, ...base, ...spelled, ...options.lead, ...operands]);
    return out;
  }
  // The suite's share: every spelling once, each with the next base and operand form in turn, and every base and
  // operand form without an option; `npm run oracle` runs every spelling with every one.
  for (const [base, operands] of combinations) out.push([program, ...base, ...options.lead, ...operands]);
  spellings(module, options.samples).forEach((spelled, i) => {
    const [base, operands] = combinations[i % combinations.length]!;
    out.push([program, ...base, ...spelled, ...options.lead, ...operands]);
  });
  return out;
}

const GREP_SAMPLES: Record<string, string[]> = {
  e: ['CANARY'],
  f: ['pats.txt'],
  '--exclude-from': ['pats.txt'],
  d: ['recurse', 'rec', 'read', 'skip'],
  D: ['read', 'skip'],
  m: ['5'],
  A: ['1'],
  B: ['1'],
  C: ['1'],
  '--include': ['*', '.env'],
  '--exclude': ['*.md'],
  '--exclude-dir': ['.git'],
  '--binary-files': ['text'],
  '--color': ['never'],
  '--colour': ['never'],
};

const RG_SAMPLES: Record<string, string[]> = {
  e: ['CANARY'],
  f: ['pats.txt'],
  g: ['.env', '!*.md', '*', 'x', '*.txt', 'x/.h*'],
  '--iglob': ['.ENV', '!*.md'],
  t: ['sh', 'txt'],
  T: ['md'],
  d: ['3'],
  A: ['1'],
  B: ['1'],
  C: ['1'],
  m: ['5'],
  M: ['100'],
  j: ['1'],
  E: ['utf-8'],
  '--type-add': ['x:*.env'],
  '--type-clear': ['sh'],
  '--color': ['never'],
  '--colors': ['match:fg:red'],
  '--sort': ['path'],
  '--sortr': ['path'],
  '--engine': ['default'],
  '--dfa-size-limit': ['1M'],
  '--regex-size-limit': ['1M'],
  '--max-filesize': ['1M'],
  '--path-separator': ['/'],
};

const TREE_SAMPLES: Record<string, string[]> = {
  L: ['1', '3'],
  P: ['*'],
  H: ['.'],
  '--charset': ['ascii'],
  '--filelimit': ['5'],
  '--timefmt': ['%Y'],
  '--sort': ['name'],
};

const CP_SAMPLES: Record<string, string[]> = {
  S: ['.bak'],
  t: ['out'],
  '--no-preserve': ['mode'],
  '--sparse': ['auto'],
  '--preserve': ['all'],
  '--backup': ['numbered'],
  '--reflink': ['auto'],
  '--context': ['x'],
};

const SEARCH_OPERANDS = [[], ['docs/key'], ['src']];

describe.skipIf(!PROGRAMS)('search and copy programs against the real ones', () => {
  const cases: [string, ProgramModule, Parameters<typeof lines>[1], boolean][] = [
    [
      'grep',
      GREP_MODULE,
      { samples: GREP_SAMPLES, bases: [[], ['-r']], lead: ['CANARY'], operands: SEARCH_OPERANDS },
      false,
    ],
    [
      'rg',
      RG_MODULE,
      { samples: RG_SAMPLES, bases: [[]], lead: ['CANARY'], operands: SEARCH_OPERANDS },
      false,
    ],
    [
      'tree',
      TREE_MODULE,
      { samples: TREE_SAMPLES, bases: [[], ['-a']], lead: [], operands: [[], ['docs'], ['.env']] },
      true,
    ],
    [
      'cp',
      CP_MODULE,
      {
        samples: CP_SAMPLES,
        bases: [[], ['-r']],
        lead: [],
        operands: [
          ['docs', 'out'],
          ['README.md', 'out'],
          ['docs/key', 'out'],
          ['tmpl', 'out'],
          ['tmpl/.', 'out'],
        ],
      },
      true,
    ],
  ];
  for (const [name, module, options, fresh] of cases) {
    it(`${name}: every canary printed or copied is a declared read, every file written a declared write`, () => {
      const problems = lines(module, options).flatMap((line) => check(line, fresh));
      expect(problems).toEqual([]);
    }, 600_000);
  }
});
