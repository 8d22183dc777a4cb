import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { AWK_MODULE } from '../../src/bash/programs/awk/index.js';
import { SED_MODULE } from '../../src/bash/programs/sed/index.js';
import type { SimpleCommand } from '../../src/bash/types.js';

/**
 * Runs generated sed and awk command lines in the real GNU sed, gawk and mawk, in a folder seeded with canary
 * secrets and a marker program on PATH, and holds the analysis to what the program did:
 * - it ran a command (the marker recorded it): a CodeExecution or the nested command is declared;
 * - a file appeared or changed: a write of it is declared, or the command runs code the analysis cannot see and
 *   says its effects are unknown;
 * - a canary showed in the output: a read of its file is declared, or the same unseen code and unknown effects.
 */

const has = (program: string, ...args: string[]) =>
  spawnSync(program, args, { encoding: 'utf8' }).status === 0;
const GNU_SED = spawnSync('sed', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU sed') ?? false;
const GAWK = has('gawk', '--version');
const MAWK = has('mawk', '-W', 'version');

const CANARIES: Record<string, string> = { '.env': 'CANARY_ENV_7f3a', 'secret.txt': 'CANARY_SECRET_91bc' };

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// biome-ignore format: a table of pieces reads better packed
const SED_SNIPPETS = [
  'p', 'w out.txt', 'W out.txt', 's/a/b/w out.txt', 's/a/b/gw out.txt', 's|a|b|pw out.txt', 's/a/b/w  out.txt',
  's/a/b/Iw out.txt', 's/a/b/2w out.txt', '/a/w out.txt', '1!w out.txt', '2,$W out.txt', '$!{w out.txt\n}',
  '0,/a/w out.txt', '1~2w out.txt', '/a/,/b/w out.txt', 'w /dev/stdout', 'w /dev/stderr', '1r .env',
  '1R secret.txt', '0r .env', '0 r secret.txt', '$r .env', '/a/r secret.txt', 'r /dev/stdin', '1e mark', 'e mark', '$e mark',
  's/.*/mark/e', 's/.*/mark/ge', '1{s/.*/mark/;e\n}', 'a foo', 'i\\\nbar', 'y/ab/ba/', '=', 'F', 'l', 'z;p',
  's/a/b/;w out.txt', 'w out.txt;p', '1d;w sub/out.txt', 'h;G;w out.txt', 'Q', '1q',
];

const SED_OPTIONS = [
  '',
  '-n',
  '-s',
  '-E',
  '-u',
  '--posix',
  '--debug',
  '-z',
  '-i',
  '-i.bak',
  '--sandbox',
  '-n -s',
];

/** How the script reaches sed: a function of the script text. */
const SED_MODES: ((script: string) => string)[] = [
  (s) => `${quote(s)} f`,
  (s) => `-- ${quote(s)} f`,
  (s) => `-e ${quote(s)} f`,
  (s) => `--expression=${quote(s)} f`,
  (s) => `--exp=${quote(s)} f`,
  (s) => `-e p -e ${quote(s)} f`,
  (s) => `f -e ${quote(s)}`,
  (s) => `-f - f <<< ${quote(s)}`,
  (s) => `-f /dev/stdin f <<< ${quote(s)}`,
  (s) => `--file=- f <<< ${quote(s)}`,
  (s) => `--fi=- f <<< ${quote(s)}`,
  (s) => `-f /dev/fd/0 f <<< ${quote(s)}`,
  (s) => `-f /proc/self/fd/0 f <<< ${quote(s)}`,
  (s) => `-f /dev/fd/3 f 3<<< ${quote(s)}`,
  (s) => `-f <(printf '%s\\n' ${quote(s)}) f`,
  (s) => `-e p -f - f <<< ${quote(s)}`,
  (s) => `-f script.sed f # ${quote(s)}`,
];

// biome-ignore format: a table of pieces reads better packed
const AWK_SNIPPETS = [
  '{print}', 'BEGIN{system("mark")}', 'BEGIN { system ("mark") }', '{print > "out.txt"}', '{print >> "out.txt"}',
  '{printf "%s\\n", $0 > "out.txt"}', 'END{print NR > "out.txt"}', 'BEGIN{f="out.txt"; print "x" > f}',
  'BEGIN{print "x" > ("out" ".txt")}', 'BEGIN{print "x" | "mark"}', 'BEGIN{printf "x" | "mark"; close("mark")}',
  'BEGIN{"mark" | getline}', 'BEGIN{"mark" | getline x}', 'BEGIN{c="mark"; c | getline}',
  'BEGIN{while ((getline l < ".env") > 0) print l}', 'BEGIN{getline < "secret.txt"; print}',
  'BEGIN{getline x < ".env"; print x}', 'BEGIN{f=".env"; getline x < f; print x}',
  'BEGIN{ARGV[1]=".env"; ARGC=2} {print}', 'BEGIN{ARGV[ARGC++]="secret.txt"} {print}',
  'BEGIN{split(".env", ARGV)} {print}', 'BEGIN{print "x" > "/dev/stdout"}', 'BEGIN{print "x" > "/dev/stderr"}',
  'BEGIN{c="mark"; system(c)}', 'NR==1{system("mark")}', '/a/{print > "out.txt"}',
  'BEGIN { print "a > b", "system(x)" }', '# system("mark")\n{print}', '{ print \\\n > "out.txt" }',
];

const AWK_OPTIONS = ['', '-F:', '-v x=1', '-v ARGC=2'];

interface AwkMode {
  programs: readonly string[];
  line: (program: string) => string;
}

const AWKS = ['awk', 'gawk', 'mawk'] as const;
const GNU = ['awk', 'gawk'] as const;

const AWK_MODES: AwkMode[] = [
  { programs: AWKS, line: (p) => `${quote(p)} f` },
  { programs: AWKS, line: (p) => `-- ${quote(p)} f` },
  { programs: AWKS, line: (p) => `-f - f <<< ${quote(p)}` },
  { programs: AWKS, line: (p) => `-f /dev/stdin f <<< ${quote(p)}` },
  { programs: AWKS, line: (p) => `-f /dev/fd/0 f <<< ${quote(p)}` },
  { programs: AWKS, line: (p) => `-f /proc/self/fd/0 f <<< ${quote(p)}` },
  { programs: AWKS, line: (p) => `-f <(printf '%s\\n' ${quote(p)}) f` },
  { programs: AWKS, line: (p) => `-f prog.awk f # ${quote(p)}` },
  { programs: AWKS, line: (p) => `${quote(p)} .env` },
  { programs: GNU, line: (p) => `--file=- f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `--fil=/dev/stdin f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `-e ${quote(p)} f` },
  { programs: GNU, line: (p) => `--source=${quote(p)} f` },
  { programs: GNU, line: (p) => `--so=${quote(p)} f` },
  { programs: GNU, line: (p) => `-E /dev/stdin f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `--ex=/dev/stdin f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `-Wexec=/dev/stdin f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `-W source=${quote(p)} f` },
  { programs: GNU, line: (p) => `-i /dev/stdin 'BEGIN{}' f <<< ${quote(p)}` },
  { programs: GNU, line: (p) => `-i inc ${quote(p)} f` },
  { programs: GNU, line: (p) => `-i inplace ${quote(p)} f` },
  { programs: GNU, line: (p) => `-f prog.awk -e ${quote(p)} f` },
  { programs: ['mawk'], line: (p) => `-W exec /dev/stdin f <<< ${quote(p)}` },
  { programs: ['mawk'], line: (p) => `-We /dev/stdin f <<< ${quote(p)}` },
  { programs: ['mawk'], line: (p) => `-W interactive ${quote(p)} f` },
];

/** Pieces of awk text that combine into programs stressing strings, regexes, comments and redirections. */
// biome-ignore format: a table of pieces reads better packed
const AWK_PIECES = [
  '{', '}', '(', ')', ';', '\n', ' ', '/', '/x/', '/[/]/', '/a\\/b/', '"mark"', '"out.txt"', '".env"', '"a\\"b"',
  '# c\n', '\\\n', 'x', '$1', 'NR', 'a[1]', '++', '+', '-', '*', '^', '!', '>', '>>', '<', '|', '?', ':', '~', '=',
  '/=', ',', 'print', 'printf', 'getline', 'system(', 'close(', 'ENVIRON', 'ARGV[1]=', 'in', 'if', 'else',
  'BEGIN', 'END', 'length', 'next', 'exit', '1', 'f(', 'function f(a)', 'BEGIN{', 'system("mark")',
  'print > "out.txt"', '"mark" | getline', 'getline < ".env"', 'print | "mark"',
];

/** Pieces of sed scripts, with every command that reaches a file or runs one. */
// biome-ignore format: a table of pieces reads better packed
const SED_PIECES = [
  's/a/b/', 's/[/]/x/', 's/[]/]/x/', 's|a|b|', 's/a\\/b/c/', 's/a/b/g', 's/a/b/w out.txt', 's/.*/mark/e', 's/a/b/ e',
  'y/ab/xy/', '/a/', '/[/]/', '\\%a%', '1', '0', '$', '1~2', '2,+1', '0,/a/', ',', '!', ' ', ';', '\n', '{', '}',
  'p', 'd', 'N', 'q', 'l', '=', 'h', 'G', ':a', 'ba', 'a foo', 'a\\', 'i\\\nbar', 'c\\baz', 'e', 'e mark',
  'r .env', 'R secret.txt', 'w out.txt', 'W out.txt', '# c', '\\', '[', 'e', 'w', 'r',
];

/** A small grammar of awk programs whose pieces stress lexing (regex or division, strings, comments) and effects. */
function awkProgram(random: () => number): string {
  const expr = (depth: number): string => {
    const leaves = [
      '$1',
      'NR',
      'x',
      '"s"',
      '"a\\"b"',
      '1',
      '2.5',
      'length',
      'a[1]',
      '/x/',
      '"mark"',
      '".env"',
    ];
    if (depth > 2 || random() < 0.4) return pick(random, leaves);
    const e = () => expr(depth + 1);
    return pick(random, [
      () => `(${e()})`,
      () => `${e()} / 2`,
      () => `${e()} ~ /a\\/b/`,
      () => `length(${e()})`,
      () => `${e()} " " ${e()}`,
      () => `${e()} ? ${e()} : ${e()}`,
      () => `!${e()}`,
      () => `substr(${e()}, 2)`,
      () => '"mark" | getline',
      () => '"mark" | getline y',
      () => '(getline y < ".env")',
      () => '(getline < "secret.txt")',
      () => 'system("mark")',
      () => `${e()} > 1`,
      () => 'x++',
    ])();
  };
  const statement = (depth: number): string => {
    const e = () => expr(1);
    const s = () => (depth > 1 ? 'print' : statement(depth + 1));
    return pick(random, [
      () => `print ${e()}`,
      () => `print ${e()}, ${e()}`,
      () => `printf "%s\\n", ${e()}`,
      () => `print ${e()} > "out.txt"`,
      () => `print ${e()} >> "sub/out.txt"`,
      () => `print ${e()} | "mark"`,
      () => `printf("%s", ${e()}) > "out.txt"`,
      () => `print > ("out" ".txt")`,
      () => `x = ${e()}`,
      () => `if (${e()}) ${s()}; else ${s()}`,
      () => `while (${e()}) { ${s()}; break }`,
      () => `for (i = 0; i < 1; i++) ${s()}`,
      () => 'getline < "secret.txt"; print',
      () => 'system("mark")',
      () => 'close("mark")',
      () => e(),
      () => '# system("mark")\n',
      () => `{ ${s()} }`,
    ])();
  };
  const body = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => statement(0)).join('; ');
  const items = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
    pick(random, [
      () => `BEGIN { ${body()} }`,
      () => `END { ${body()} }`,
      () => `${expr(1)} { ${body()} }`,
      () => `/a/ { ${body()} }`,
      () => 'function f(p) { return p }',
      () => expr(1),
    ])(),
  );
  return items.join(pick(random, ['\n', '; ', ' ']));
}

interface Outcome {
  status: number | null;
  ran: boolean;
  changed: string[];
  leaked: string[];
}

function snapshot(dir: string, prefix = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      for (const [k, v] of snapshot(dir, name)) files.set(k, v);
    } else {
      files.set(name, `${readFileSync(join(dir, name), 'utf8')}@${statSync(join(dir, name)).mtimeMs}`);
    }
  }
  return files;
}

describe.runIf(GNU_SED && GAWK && MAWK)(
  'sed and awk declare what the real programs do (needs GNU sed, gawk, mawk)',
  () => {
    const root = mkdtempSync(join(tmpdir(), 'sed-awk-oracle-'));
    const bin = join(root, 'bin');
    const marker = join(root, 'marker');
    let work = '';

    beforeAll(async () => {
      await loadBash();
      mkdirSync(bin);
      writeFileSync(join(bin, 'mark'), `#!/bin/sh\necho ran >> "${marker}"\n`);
      chmodSync(join(bin, 'mark'), 0o755);
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    function seed(extra: Record<string, string>): void {
      rmSync(join(root, 'work'), { recursive: true, force: true });
      rmSync(marker, { force: true });
      work = join(root, 'work');
      mkdirSync(join(work, 'sub'), { recursive: true });
      writeFileSync(join(work, 'f'), 'a\nb\nab\n');
      for (const [name, canary] of Object.entries(CANARIES)) writeFileSync(join(work, name), `${canary}\n`);
      writeFileSync(join(work, 'inc.awk'), 'BEGIN { system("mark") }\n');
      writeFileSync(join(work, 'README.md'), 'a\n');
      for (const [name, text] of Object.entries(extra)) writeFileSync(join(work, name), text);
    }

    function run(line: string, extra: Record<string, string>): Outcome {
      seed(extra);
      const before = snapshot(work);
      const result = spawnSync('bash', ['-c', line], {
        cwd: work,
        encoding: 'utf8',
        input: '',
        timeout: 5000,
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: root, LC_ALL: 'C' },
      });
      const after = snapshot(work);
      const changed = [...after].filter(([name, text]) => before.get(name) !== text).map(([name]) => name);
      const output = `${result.stdout}${result.stderr}`;
      const leaked = Object.entries(CANARIES)
        .filter(([, canary]) => output.includes(canary))
        .map(([name]) => name);
      let ran = false;
      try {
        ran = readFileSync(marker, 'utf8').length > 0;
      } catch {}
      return { status: result.status, ran, changed, leaked };
    }

    const clean = (path: string) => path.replace(/^(\.\/)+/, '');

    /** Problems with the analysis of `line` given what running it did. */
    function check(line: string, outcome: Outcome): string[] {
      const analysis = analyze(line);
      const programs = analysis.commands.filter((cmd) =>
        /^(sed|awk|gawk|mawk)$/.test(cmd.name?.program ?? ''),
      );
      const problems: string[] = [];
      if (analysis.opaque) return problems;
      if (programs.length === 0) return [`${line}: no sed or awk command found`];
      const unseen = (cmd: SimpleCommand) => cmd.executes.length > 0 && !cmd.effectsKnown;
      const declares = (access: string[], name: string) =>
        analysis.commands.some(
          (cmd) =>
            unseen(cmd) || cmd.effects.some((e) => access.includes(e.access) && clean(e.path.value) === name),
        );
      for (const cmd of programs) {
        const words = cmd.argv.map((word) => word.value);
        for (const exec of cmd.executes) {
          const stream = !exec.code || exec.code === '-' || /^\/(dev|proc)\//.test(exec.code);
          if (exec.kind === 'script-file' && stream)
            problems.push(`${line}: ${exec.via} ${exec.code ?? '?'} is a stream, yet declared a script file`);
        }
        for (const e of cmd.effects) {
          if (e.via !== 'argument' || e.access === 'read') continue;
          const shown =
            words.includes(e.path.value) ||
            (e.access === 'create' && words.some((w) => e.path.value.startsWith(w)));
          if (!shown)
            problems.push(`${line}: ${e.access} ${e.path.value} is not an operand, yet declared as one`);
        }
      }
      if (outcome.ran) {
        const runs =
          programs.some((cmd) => cmd.executes.length > 0) ||
          analysis.commands.some((cmd) => cmd.nested && cmd.name?.program === 'mark');
        if (!runs) problems.push(`${line}: ran a command, none declared`);
      }
      for (const name of outcome.changed) {
        if (!declares(['write', 'create'], name)) problems.push(`${line}: wrote ${name}, not declared`);
      }
      for (const name of outcome.leaked) {
        if (!declares(['read'], name)) problems.push(`${line}: printed ${name}, no read declared`);
      }
      return problems;
    }

    test('generated sed command lines', () => {
      const random = seeded(41);
      const problems: string[] = [];
      const effects = { ran: 0, changed: 0, leaked: 0 };
      for (let k = 0; k < 300; k++) {
        const script = [
          pick(random, SED_SNIPPETS),
          ...(random() < 0.3 ? [pick(random, SED_SNIPPETS)] : []),
        ].join(pick(random, [';', '\n']));
        const line = `sed ${pick(random, SED_OPTIONS)} ${pick(random, SED_MODES)(script)}`;
        const outcome = run(line, { 'script.sed': `${script}\n` });
        effects.ran += Number(outcome.ran);
        effects.changed += Number(outcome.changed.length > 0);
        effects.leaked += Number(outcome.leaked.length > 0);
        problems.push(...check(line, outcome));
      }
      console.log(`sed oracle: 300 lines, ${JSON.stringify(effects)}, problems: ${problems.length}`);
      expect(effects.ran).toBeGreaterThan(20);
      expect(effects.changed).toBeGreaterThan(50);
      expect(effects.leaked).toBeGreaterThan(10);
      expect(problems).toEqual([]);
    }, 300_000);

    test('programs and scripts built from pieces', () => {
      const random = seeded(47);
      const problems: string[] = [];
      const accepted = { sed: 0, gawk: 0, mawk: 0 };
      for (let k = 0; k < 400; k++) {
        const sed = k % 3 === 0;
        const pieces = sed ? SED_PIECES : AWK_PIECES;
        let text = '';
        const n = 1 + Math.floor(random() * (sed ? 4 : 7));
        for (let j = 0; j < n; j++) text += pick(random, pieces);
        if (!sed && random() < 0.5) text = `BEGIN { ${text} }`;
        const program = sed ? 'sed' : pick(random, ['gawk', 'mawk'] as const);
        const line = `${program} ${sed ? '-n ' : ''}${quote(text)} f`;
        const outcome = run(line, {});
        if (outcome.status === 0) accepted[program]++;
        problems.push(...check(line, outcome));
      }
      console.log(
        `pieces oracle: 400 lines, accepted ${JSON.stringify(accepted)}, problems: ${problems.length}`,
      );
      expect(accepted.sed).toBeGreaterThan(20);
      expect(accepted.gawk + accepted.mawk).toBeGreaterThan(20);
      expect(problems).toEqual([]);
    }, 300_000);

    test('awk programs from a grammar, in gawk and mawk', () => {
      const random = seeded(53);
      const problems: string[] = [];
      const accepted = { gawk: 0, mawk: 0 };
      const effects = { ran: 0, changed: 0, leaked: 0 };
      for (let k = 0; k < 300; k++) {
        const program = pick(random, ['gawk', 'mawk'] as const);
        const line = `${program} ${quote(awkProgram(random))} f`;
        const outcome = run(line, {});
        if (outcome.status === 0) accepted[program]++;
        effects.ran += Number(outcome.ran);
        effects.changed += Number(outcome.changed.length > 0);
        effects.leaked += Number(outcome.leaked.length > 0);
        problems.push(...check(line, outcome));
      }
      console.log(
        `awk grammar oracle: 300 programs, accepted ${JSON.stringify(accepted)}, ${JSON.stringify(effects)}, ` +
          `problems: ${problems.length}`,
      );
      expect(accepted.gawk + accepted.mawk).toBeGreaterThan(150);
      expect(Math.min(effects.ran, effects.changed, effects.leaked)).toBeGreaterThan(20);
      expect(problems).toEqual([]);
    }, 300_000);

    test('the shapes the modules give the effect oracle', () => {
      const problems: string[] = [];
      for (const line of [...(SED_MODULE.oracle?.cases ?? []), ...(AWK_MODULE.oracle?.cases ?? [])]) {
        const outcome = run(line, {
          'prog.awk': 'BEGIN { system("mark") }\n',
          'x.awk': '{ print > "out.txt" }\n',
        });
        problems.push(...check(line, outcome));
      }
      expect(problems).toEqual([]);
    }, 300_000);

    test('generated awk command lines', () => {
      const random = seeded(43);
      const problems: string[] = [];
      const effects = { ran: 0, changed: 0, leaked: 0 };
      for (let k = 0; k < 300; k++) {
        const program = pick(random, AWK_SNIPPETS);
        const mode = pick(random, AWK_MODES);
        const line = `${pick(random, mode.programs)} ${pick(random, AWK_OPTIONS)} ${mode.line(program)}`;
        const outcome = run(line, { 'prog.awk': `${program}\n` });
        effects.ran += Number(outcome.ran);
        effects.changed += Number(outcome.changed.length > 0);
        effects.leaked += Number(outcome.leaked.length > 0);
        problems.push(...check(line, outcome));
      }
      console.log(`awk oracle: 300 lines, ${JSON.stringify(effects)}, problems: ${problems.length}`);
      expect(effects.ran).toBeGreaterThan(20);
      expect(effects.changed).toBeGreaterThan(20);
      expect(effects.leaked).toBeGreaterThan(10);
      expect(problems).toEqual([]);
    }, 300_000);
  },
);
