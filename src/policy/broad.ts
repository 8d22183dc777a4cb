import { analyze, loadBash, programRelocation } from '../bash/index.js';
import { type BashPattern, canonicalToolName, type Rule } from '../rules/index.js';

/**
 * Programs that run whatever they are given, for a rule whose first word has a wildcard (`Bash(pyth*)`): no
 * fixed program is left to ask the analyzer about.
 */
const RUNS_ANYTHING = [
  'python',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'pwsh',
  'eval',
  'exec',
  'env',
  'sudo',
  'doas',
  'xargs',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'pipx',
  'source',
];

/** A word planted where the rule's wildcard stands: the code it would choose. */
const PROBE = 'automode_code';

/**
 * What a wildcard may stand for, in the shapes that make a program run code: a script or target name, inline
 * code, a command for a wrapper (after its own operand, after `--`), a host or container and its command.
 */
const SUFFIXES = [
  PROBE,
  `run ${PROBE}`,
  `exec ${PROBE}`,
  `exec ${PROBE} ${PROBE}`,
  `exec ${PROBE} -- ${PROBE}`,
  `x ${PROBE}`,
  `dlx ${PROBE}`,
  `-c ${PROBE}`,
  `-e ${PROBE}`,
  `sh -c ${PROBE}`,
  `10 ${PROBE}`,
  `-- ${PROBE}`,
  `${PROBE} ${PROBE}`,
  `-- sh -c ${PROBE}`,
  `${PROBE} sh -c ${PROBE}`,
  `${PROBE} -- sh -c ${PROBE}`,
];

/**
 * A command line the rule admits in which its wildcard chooses the code that runs, by the analyzer's own
 * reading (`CODE` where the wildcard stands); undefined when there is none. A wildcard glued to a word (`stem`,
 * `Bash(git log*)`) stands for the rest of that word and what follows it: the lines tried keep the word
 * (`git log CODE`) or complete it into a word that runs code (`npm r*` → `npm run CODE`), never drop it.
 */
function codeChosenByWildcard(prefix: string, stem?: string): string | undefined {
  const lines: string[] = [];
  if (stem === undefined) for (const suffix of SUFFIXES) lines.push(`${prefix} ${suffix}`);
  else {
    for (const suffix of SUFFIXES) lines.push(`${prefix} ${stem} ${suffix}`);
    for (const suffix of SUFFIXES) {
      const first = suffix.split(' ')[0]!;
      if (first !== stem && first.startsWith(stem) && !first.includes(PROBE))
        lines.push(`${prefix} ${suffix}`);
    }
    for (const runner of RUNS_ANYTHING)
      if (runner !== stem && runner.startsWith(stem))
        for (const suffix of SUFFIXES) lines.push(`${prefix} ${runner} ${suffix}`);
  }
  for (const line of lines) {
    // A probe the program would refuse (an option it does not have) makes the line opaque: that line asks.
    for (const cmd of analyze(line).commands) {
      const chosen =
        (cmd.nested && cmd.argv[0]?.value?.includes(PROBE)) ||
        // A script the fixed words name without its text (`cargo test`) is theirs; other unnamed code is not.
        cmd.executes.some((e) => (e.code === undefined ? e.kind !== 'script-file' : e.code.includes(PROBE)));
      if (chosen) return line.replaceAll(PROBE, 'CODE');
    }
  }
  return undefined;
}

/** The word a pattern's first wildcard is glued to (`log` in `git log*`), when it is glued to one. */
function gluedStem(p: BashPattern): string | undefined {
  const source = p.legacyColonStar ? `${p.source.slice(0, -2).trimEnd()} *` : p.source;
  const literal = source.slice(0, source.indexOf('*'));
  if (literal === '' || literal.endsWith(' ')) return undefined;
  return literal.split(' ').at(-1);
}

/** The fixed words before the pattern's first wildcard; a word the wildcard is glued to is not fixed. */
function fixedWords(p: BashPattern): string[] {
  const source = p.legacyColonStar ? `${p.source.slice(0, -2).trimEnd()} *` : p.source;
  const star = source.indexOf('*');
  const literal = source.slice(0, star);
  const words = literal.split(' ').filter(Boolean);
  if (!literal.endsWith(' ')) words.pop();
  return words;
}

const known = new Map<string, string | null>();

/**
 * Tools each of whose allow rules auto mode sets aside, as Claude Code does on entering it (reference as of
 * v2.1.240): a sub-agent (`Agent`, `Agent(Explore)`) and a monitor (`Monitor`) run commands no words of the rule
 * show, so the classifier judges them instead.
 */
export const AUTO_MODE_SET_ASIDE_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Monitor']);

/**
 * Allow rules that auto mode sets aside, as Claude Code does on entering it: the whole Bash tool, and Bash rules
 * whose wildcard chooses the code that runs (after an interpreter, a shell, a wrapper, a runner of project
 * scripts, a remote or container command). `Bash(node --version *)` and `Bash(xargs grep *)` are not broad:
 * what they run is fixed. The parser must be loaded (`loadRuleChecks`) for rules the fast path cannot read.
 */
export function isBroadAllow(rule: Rule): boolean {
  return broadAllowWitness(rule) !== undefined;
}

/** Why an allow rule is broad: a command it admits whose code the wildcard chooses (`Bash` for the whole tool). */
export function broadAllowWitness(rule: Rule): string | undefined {
  if (rule.type !== 'permission' || rule.behavior !== 'allow') return undefined;
  const parsed = rule.parsed;
  if (AUTO_MODE_SET_ASIDE_TOOLS.has(canonicalToolName(parsed.tool))) return 'CODE';
  if (parsed.kind === 'tool') return parsed.tool === 'Bash' ? 'CODE' : undefined;
  if (parsed.kind !== 'bash') return undefined;
  const p = parsed.pattern;
  if (p.exact) return undefined;
  const words = fixedWords(p);
  if (words.length === 0) {
    const first = p.source.split(' ')[0] ?? '';
    const stem = first.replace(/\*.*$/, '');
    const program = stem === '' ? 'sh' : RUNS_ANYTHING.find((r) => r.startsWith(stem) || stem.startsWith(r));
    return program === undefined ? undefined : `${program} -c CODE`;
  }
  const prefix = words.join(' ');
  const stem = gluedStem(p);
  const key = stem === undefined ? prefix : `${prefix}\u0000${stem}`;
  let witness = known.get(key);
  if (witness === undefined) {
    try {
      witness = codeChosenByWildcard(prefix, stem) ?? null;
    } catch {
      // Unreadable without the parser, or not at all: setting the rule aside is the safe side.
      return `${prefix} CODE`;
    }
    if (known.size > 10_000) known.clear();
    known.set(key, witness);
  }
  return witness ?? undefined;
}

/** Loads what the static rule checks (`isBroadAllow`, `overridesShipped`) need to read every rule. */
export function loadRuleChecks(): Promise<unknown> {
  return loadBash();
}

/**
 * Code runners, by the fixed words a rule starts with: an interpreter or shell running a file or inline code, a
 * build tool running a target, a package manager or toolchain running a project script or program.
 */
const CODE_RUNNERS: ReadonlyMap<string, readonly string[] | undefined> = new Map([
  ...[
    'node',
    'python',
    'python3',
    'ruby',
    'perl',
    'php',
    'deno',
    'bun',
    'tsx',
    'ts-node',
    'bash',
    'sh',
    'zsh',
  ].map((p) => [p, undefined] as const),
  ...['make', 'gmake', 'just', 'rake'].map((p) => [p, undefined] as const),
  ['npm', ['run', 'run-script', 'test', 'start']],
  ['pnpm', ['run', 'test', 'start']],
  ['yarn', ['run', 'test', 'start']],
  ['cargo', ['run', 'test']],
  ['go', ['run', 'test']],
  ['uv', ['run']],
  ['poetry', ['run']],
]);

/**
 * The word of the command that moves where the runner looks for its code (`src` in `make -C src`, `-Csrc`,
 * `--prefix=x`, `workspace` in `yarn workspace a build`), or undefined when none does: that code is not the
 * project's code the rule's words show, so a code-runner rule does not vouch for it unless it names the word. Each
 * runner's options are its program module's `relocation`; short options match glued values too (`-Csrc`), and
 * nothing after `--` counts, it belongs to the code run.
 */
export function relocatingWord(program: string, values: readonly string[]): number | undefined {
  const r = programRelocation(program);
  if (!r) return undefined;
  for (let i = 1; i < values.length; i++) {
    let word = values[i]!;
    if (word === '--' || (r.optionsFirst && !word.startsWith('-'))) return undefined;
    if (r.not?.includes(word)) continue;
    if (r.flags?.includes(word)) return i;
    if (r.singleDash && word.startsWith('--')) word = word.slice(1);
    for (const option of r.values) {
      const long = option.length > 2;
      if (word === option) return i + 1 < values.length ? i + 1 : i;
      if (long && word.startsWith(`${option}=`)) return i;
      if (!long && word.startsWith(option)) return i;
      // A group of flags ending in the option (`-kf`, `-kfother.mk`).
      if (!long && r.group && /^-[^-]/.test(word)) {
        const at = word.indexOf(option[1]!, 1);
        if (at > 1 && [...word.slice(1, at)].every((c) => r.group!.includes(c)))
          return at === word.length - 1 && i + 1 < values.length ? i + 1 : i;
      }
    }
  }
  return undefined;
}

/**
 * Whether an allow rule names a code runner with a wildcard over what it runs (`Bash(npm run *)`,
 * `Bash(python3 *)`, `Bash(make *)`, `Bash(./scripts/*)`): it allows running the project's code that way, as
 * Claude Code reads it, and `program` (the runner the command names) is that runner. A rule for any other
 * program vouches for no code its words do not show.
 */
export function isCodeRunnerRule(rule: Rule, program: string): boolean {
  if (rule.type !== 'permission' || rule.behavior !== 'allow' || rule.parsed.kind !== 'bash') return false;
  const p = rule.parsed.pattern;
  if (p.exact) return false;
  const words = fixedWords(p);
  const first = words[0] ?? p.source.split(' ')[0] ?? '';
  if (first.includes('/')) return true;
  if (first !== program || !CODE_RUNNERS.has(first)) return false;
  const subcommands = CODE_RUNNERS.get(first);
  return subcommands === undefined || (words[1] !== undefined && subcommands.includes(words[1]));
}
