import { type Grammar, grammar } from '../../../src/bash/programs/options.js';
import type { ProgramSpec, SubcommandSpec } from '../../../src/bash/programs/program.js';
import { allProgramModules, allProgramSpecs } from '../../../src/bash/programs/registry.js';
import { mulberry32, pick, type Rng, shuffle } from '../oracle/generate.js';

/**
 * Command lines drawn from what automode knows of each program: every subcommand of its spec, every option of
 * its grammar (read-only allow-list first), with values and operands from the canary world, and the program
 * module's own cases and operand forms; plus the shapes that once got through (SAMPLES).
 */

export interface Generated {
  /** The program the line was generated for (the report's key). */
  program: string;
  line: string;
}

/** Shapes known to read secrets, run code or write protected paths while being allowed. */
export const SAMPLES: readonly string[] = [
  'git blame src/../.env',
  'git diff --no-index ../home/.ssh/id_rsa README.md',
  'git show HEAD@{0}:.env',
  "git show 'HEAD^{/init}:.env'",
  'git grep SECRET',
  "git grep -e . -- '*.env*'",
  'echo HEAD:.env | git cat-file --batch',
  'git log -L1,1:.env',
  'grep -d recurse SECRET',
  'rg -g .env SECRET',
  'rg --unrestricted --unrestricted X',
  "rg --type-add 'x:*.env' -tx X",
  `echo 'BEGIN{system("touch P")}' | awk -f -`,
  "sed -f - notes.txt <<< '1e touch P'",
  'kubectl get pods --kubeconfig=./k.yaml',
  'kubectl get pods --profile-output=.git/hooks/pre-commit',
  'docker cp c:/x .git/hooks/pre-commit',
  'docker save -o .git/config x',
  'docker cp . c:/x',
  'cp -rL docs x',
  "sed -n 'w out.txt' README.md",
  'tree -a -H . -R -L 3',
  'cd ~/.ssh && ls -la',
  'echo ~/.ssh/*',
  // Other repositories, credential stores, history, a makefile a flag chooses, secrets by name, links out.
  'git -C src/bare status',
  'git -C vendor/evil status',
  'git -C vendor/evil log -p',
  'git -C src -C bare status',
  'cd vendor/evil && git status',
  "printf 'protocol=https\\nhost=127.0.0.1\\n' | git credential-store get",
  'git credential-store --file ~/.git-credentials get',
  'git log -p',
  'git log -p --all',
  'git show stash@{0}^3',
  'git stash show -p -u',
  'git send-pack https://127.0.0.1:9/x main',
  'kubectl get pods --server=https://127.0.0.1:9 --insecure-skip-tls-verify',
  'make -C src',
  'make -f src/Makefile',
  'cat id_rsa',
  'cat deploy/server.pem',
  'cat .pypirc .pgpass .boto .netrc',
  'git cat-file -p HEAD:id_rsa',
  'find -L .',
  'ls -RL .',
  'find home-link/.ssh',
];

/** Operand words of the world: secrets by every road, links, git revisions, globs, stdin, plain files. */
const OPERANDS: readonly string[] = [
  '.env',
  'src/../.env',
  './.env',
  'env-link',
  '~/.ssh/id_rsa',
  '~/.ssh',
  '../home/.ssh/id_rsa',
  'ssh-link',
  'ssh-link/id_rsa',
  'aws-link',
  '~/.aws/credentials',
  'docs',
  'docs/key',
  'git-link/config',
  '.git/config',
  '.git/hooks/pre-commit',
  '.claude/settings.json',
  'k.yaml',
  '~/.kube/config',
  'node_modules',
  'scripts/build.sh',
  'src/bare',
  'vendor/evil',
  'home-link',
  'home-link/.ssh',
  'id_rsa',
  'deploy/server.pem',
  '.pypirc',
  '.netrc',
  '~/.git-credentials',
  'HEAD:id_rsa',
  'stash@{0}^3',
  '.',
  '..',
  '~',
  '*',
  '.*',
  "'*.env*'",
  '~/.ssh/*',
  'README.md',
  'notes.txt',
  'src',
  'src/main.ts',
  '-',
  'HEAD:.env',
  'HEAD@{0}:.env',
  "'HEAD^{/init}:.env'",
  'HEAD~1:.env',
  'v1:.env',
  '@{-1}',
  'HEAD',
  'main..feature',
  '--',
  'out.txt',
  '/tmp/out.txt',
  'SECRET',
  'CANARY',
  'API_KEY',
  "'.'",
  'get',
  'pods',
  'c:/x',
  'x',
];

/** Option values: the operands, and code or patterns a program may run. */
const VALUES: readonly string[] = [
  ...OPERANDS,
  '1',
  '3',
  'x',
  "'x:*.env'",
  "'1e touch P'",
  "'w out.txt'",
  `'BEGIN{system("touch P")}'`,
  'automode-marker-interp',
  "'!automode-marker-alias'",
  'json',
  '1,1:.env',
  'tcp://127.0.0.1:2375',
  'https://127.0.0.1:9/x',
];

/** Lines after which stdin carries code or a path list. */
const STDIN: readonly string[] = [
  "<<< 'HEAD:.env'",
  `<<< 'BEGIN{system("touch P")}'`,
  "<<< '1e touch P'",
  "<<< '.env'",
  '< .env',
];

interface Slot {
  program: string;
  /** The words naming the level: `git stash list`. */
  prefix: string;
  grammar: Grammar;
  /** Options to draw from, as written, each with whether it takes a value. */
  options: { text: string; value: 'none' | 'next' | 'attached' }[];
  operands: readonly string[];
  cases: readonly string[];
  /**
   * A level only service reads allow (az and gcloud commands: thousands of levels, no local read): its line
   * of each option is left to the random draws, so that it does not crowd out the other programs.
   */
  serviceOnly?: boolean;
}

function optionForms(g: Grammar, readOnly: ReadonlySet<string> | undefined): Slot['options'] {
  const out: Slot['options'] = [];
  const add = (name: string, text: string, arity: string) => {
    const form = {
      text,
      value: arity === 'value' ? 'next' : arity === 'optional' ? 'attached' : 'none',
    } as const;
    out.push(form);
    // The read-only allow-list is what lets a command through: its options are drawn twice as often.
    if (readOnly?.has(name)) out.push(form);
  };
  for (const c of g.flags) add(c, `-${c}`, 'flag');
  for (const c of g.values) add(c, `-${c}`, 'value');
  for (const c of g.optional) add(c, `-${c}`, 'optional');
  if (g.numeric) add('-#', '-5', 'flag');
  for (const [key, named] of g.long) add(named.name, `--${key}`, named.arity);
  for (const [key, named] of g.words) add(named.name, key, named.arity);
  return out;
}

function slots(): Slot[] {
  const hints = new Map<string, { cases: readonly string[]; operands: readonly string[] }>();
  for (const m of allProgramModules()) {
    for (const name of m.names)
      hints.set(name, { cases: m.oracle?.cases ?? [], operands: m.oracle?.operands ?? [] });
  }
  const out: Slot[] = [];
  const walk = (
    program: string,
    prefix: string,
    level: ProgramSpec | SubcommandSpec,
    hint: { cases: readonly string[]; operands: readonly string[] } | undefined,
  ) => {
    out.push({
      program,
      prefix,
      grammar: level.grammar,
      options: optionForms(level.grammar, level.readOnly?.options),
      operands: [...OPERANDS, ...(hint?.operands ?? [])],
      cases: prefix === program ? (hint?.cases ?? []) : [],
      serviceOnly: level.readOnly === undefined && level.serviceRead !== undefined,
    });
    for (const [name, sub] of Object.entries(level.subcommands ?? {}))
      walk(program, `${prefix} ${name}`, sub, hint);
    for (const [alias, target] of Object.entries(level.subcommandAliases ?? {})) {
      const sub = target.split(' ').reduce<SubcommandSpec | undefined>((s, w) => s?.subcommands?.[w], level);
      if (sub)
        out.push({ ...out.find((s) => s.grammar === sub.grammar)!, prefix: `${prefix} ${alias}`, cases: [] });
    }
  };
  const specced = new Set<string>();
  for (const spec of allProgramSpecs()) {
    const hint = hints.get(spec.name);
    for (const name of [spec.name, ...(spec.aliases ?? [])]) {
      specced.add(name);
      walk(spec.name, name, spec, hint);
    }
  }
  // A module without a spec (a program known only for what it runs) contributes its cases and operands.
  for (const m of allProgramModules()) {
    const name = m.names[0];
    if (!name || m.names.some((n) => specced.has(n))) continue;
    const options = { text: '--help', value: 'none' } as const;
    out.push({
      program: name,
      prefix: name,
      grammar: NO_OPTIONS,
      options: [options],
      operands: [...OPERANDS, ...(m.oracle?.operands ?? [])],
      cases: m.oracle?.cases ?? [],
    });
  }
  return out;
}

const NO_OPTIONS = grammar({});

function optionWords(rng: Rng, slot: Slot): string[] {
  const option = pick(rng, slot.options);
  if (option.value === 'none') return [option.text];
  const value = pick(rng, VALUES);
  if (option.value === 'attached' || (option.text.startsWith('--') && rng() < 0.5)) {
    return [`${option.text}${option.text.startsWith('--') ? '=' : ''}${value}`];
  }
  return [option.text, value];
}

function line(rng: Rng, slot: Slot): string {
  const words = [slot.prefix];
  const options = slot.options.length ? Math.floor(rng() * 3) : 0;
  for (let i = 0; i < options; i++) words.push(...optionWords(rng, slot));
  const operands = Math.floor(rng() * 3);
  for (let i = 0; i < operands; i++) words.push(pick(rng, slot.operands));
  if (rng() < 0.08) words.push(pick(rng, STDIN));
  return words.join(' ');
}

/**
 * Of a program's levels that only service reads allow (aws's 6,675 operations, gcloud's 1,908 commands: each one
 * table-driven by the program itself), a seeded sample of this many is named bare in the fixed part of the lines;
 * the random draws reach the others. Every level once would be hours of runs of two programs.
 */
const SERVICE_LEVELS = 150;

/**
 * `count` lines: first every module case and every option of every level once (a sample of service-only levels) (in order, as far as `count`
 * reaches), then seeded random lines over the slots. Deterministic for a seed.
 */
export function generateCommands(count: number, seed: number): Generated[] {
  const rng = mulberry32(seed);
  const all = slots();
  const out: Generated[] = [];
  for (const slot of all) for (const c of slot.cases) out.push({ program: slot.program, line: c });
  const serviceLevels = new Map<string, Slot[]>();
  for (const slot of all)
    if (slot.serviceOnly) serviceLevels.set(slot.program, [...(serviceLevels.get(slot.program) ?? []), slot]);
  const serviceDrawn = new Set<Slot>();
  for (const levels of serviceLevels.values())
    for (const slot of shuffle(levels, seed).slice(0, SERVICE_LEVELS)) serviceDrawn.add(slot);
  for (const slot of all) {
    if (slot.serviceOnly) {
      if (serviceDrawn.has(slot)) out.push({ program: slot.program, line: slot.prefix });
      continue;
    }
    out.push({ program: slot.program, line: slot.prefix });
    const seen = new Set<string>();
    for (const option of slot.options) {
      if (seen.has(option.text)) continue;
      seen.add(option.text);
      const words = [slot.prefix, option.text];
      if (option.value !== 'none') words.push(pick(rng, VALUES));
      words.push(pick(rng, slot.operands));
      out.push({ program: slot.program, line: words.join(' ') });
    }
  }
  const byProgram = new Map<string, Slot[]>();
  for (const slot of all) byProgram.set(slot.program, [...(byProgram.get(slot.program) ?? []), slot]);
  const programs = [...byProgram.values()];
  while (out.length < count) {
    const slot = pick(rng, pick(rng, programs));
    out.push({ program: slot.program, line: line(rng, slot) });
  }
  return out.slice(0, count);
}
