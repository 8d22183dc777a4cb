import type { SimpleCommand, Word } from '../bash/index.js';
import {
  DYN,
  familySpec,
  HARMLESS_ENV,
  inertAssignment,
  parseCommand,
  parseOptions,
  programSpec,
  singleField,
} from '../bash/index.js';
import type { BashPattern, Rule } from '../rules/index.js';
import { escapeRegex, matchBashPattern, matchPatternRule, parseBashPattern } from '../rules/index.js';
import { basename, type NormalizedCommand, normalize, valueWord } from './normalize.js';
import type { ReadOnlyCheck } from './readonly.js';
import { ANY, intersects, type Piece, patternPieces } from './wildcards.js';

/**
 * bash builtins that read no environment variable: `VAR=value echo x` prints what `echo x` prints, the
 * assignment lasting only for the builtin.
 */
const ENV_BLIND = new Set(['echo', 'printf', 'true', 'false', 'test', '[', ':']);

/** Stands for words a rule must not be able to cover with a wildcard. */
const HIDDEN = '\u0001';

/** The views of one command that rules are matched against, computed once per command. */
export interface CommandViews {
  words: readonly Word[];
  values: string[];
  /** argv joined by single spaces, dynamic parts as DYN. */
  raw: string;
  /** The same with the program's basename (`/bin/rm` → `rm`). */
  based: string;
  /** The words as written in the source, quotes included: `git commit -m "fix"`. */
  written: string;
  /** Values with `~`, `$HOME` and `${HOME}` replaced by the home folder. */
  resolved: string[];
  /** Whether `resolved` differs from `values`. */
  homeSpelled: boolean;
  /** `resolved` joined, with the home folder written `~` (`rm -rf /home/u/*` → `rm -rf ~/*`); for deny patterns. */
  tilde: string;
  /** Indexes of the words that are option values (`optionValueIndexes`); computed on first use. */
  optionValues?: ReadonlyMap<number, string>;
  /** `resolved`, normalised; computed on first use. */
  resolvedNormalized?: NormalizedCommand;
  /** The program's basename (`rm` for `/bin/rm`). */
  program: string;
  /** The family deny and ask rules read it as (`mkfs` for `mkfs.ext4`). */
  family: string;
  /** The program has subcommands: its normalised line may differ from `based`. */
  subcommands: boolean;
  /** The command as its program's spec reads it, once computed (`normalizedOf`). */
  normalized?: NormalizedCommand;
  allStatic: boolean;
  /** Every word is static or only a glob (`src/*.ts`), so its meaning is known up to file names. */
  globsOnly: boolean;
  /** A glob word starts with a wildcard and could expand to something that looks like an option. */
  leadingGlob: boolean;
  harmlessEnv: boolean;
  /**
   * Every assignment on the line leaves what the program runs, reads and writes unchanged (`FOO=1 ls`: ls reads
   * variables only to shape its output): enough for the read-only default, not for a rule, which vouches only
   * for the environment prefixes it could not tell from none.
   */
  inertEnv: boolean;
  extraArgs: boolean;
  /** The read-only check, once computed. */
  readOnly?: ReadOnlyCheck;
  /** `commandWords`, once computed. */
  words_?: { home: string; set: ReadonlySet<string> };
  /** `globalsLast`, once computed (null: no such reading). */
  globalsLast_?: GlobalsLast | null;
}

/**
 * The command with the options in front of its subcommand moved to the end, for a program that reads them
 * there to the same effect (`kubectl -n dev get pods` is `kubectl get pods -n dev`): `order` lists the indexes
 * of `values` in the new order.
 */
interface GlobalsLast {
  order: number[];
  raw: string;
  written: string;
}

/** `$HOME`, `"${HOME}"/x`, `$HOME/*`: the rest may hold glob characters, which deny views keep as written. */
const HOME_WORD = /^"?(?:\$HOME|\$\{HOME\})"?((?:\/[^$`\\'"{}]*)?)"?$/;

function resolveHome(word: Word, home: string): string {
  if (word.static) {
    if (word.value === '~') return home;
    if (word.value.startsWith('~/')) return home + word.value.slice(1);
    return word.value;
  }
  const m = HOME_WORD.exec(word.text);
  return m ? home + (m[1] ?? '') : word.value;
}

/** The command as its program's spec reads it, computed on first use. */
export function normalizedOf(v: CommandViews): NormalizedCommand {
  v.normalized ??= normalize(v.values, v.words);
  return v.normalized;
}

/**
 * The line deny and ask patterns also see: global options dropped and subcommand aliases resolved for a program
 * with subcommands; the line with the program's basename otherwise.
 */
export function lineOf(v: CommandViews): string {
  return v.subcommands ? normalizedOf(v).line : v.based;
}

export function viewsOf(cmd: SimpleCommand, home = ''): CommandViews {
  const argv = cmd.argv;
  const values = argv.map((w) => w.value);
  const spellsHome = home !== '' && argv.some((w) => w.text.includes('~') || w.text.includes('HOME'));
  const resolved = spellsHome ? argv.map((w) => resolveHome(w, home)) : values;
  const raw = values.join(' ');
  const first = values[0];
  const based = first?.includes('/') ? [basename(first), ...values.slice(1)].join(' ') : raw;
  const program = basename(first ?? '');
  const spec = familySpec(program);
  let allStatic = true;
  let globsOnly = true;
  let leadingGlob = false;
  let quoted = false;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w.text !== w.value) quoted = true;
    if (w.static) continue;
    allStatic = false;
    if (!w.dynamic.every((d) => d === 'glob') || w.value.includes(DYN)) globsOnly = false;
    if (i > 0 && /^[*?[]/.test(w.value)) leadingGlob = true;
  }
  return {
    words: argv,
    values,
    raw,
    based,
    tilde:
      home !== '' && (spellsHome || values.some((w) => w.startsWith(home))) ? tildeLine(resolved, home) : raw,
    written: quoted ? argv.map((w) => w.text).join(' ') : raw,
    resolved,
    homeSpelled: spellsHome && resolved.some((w, i) => w !== values[i]),
    program,
    family: spec?.name ?? program,
    subcommands: spec?.subcommands !== undefined,
    allStatic,
    globsOnly,
    leadingGlob,
    harmlessEnv: cmd.assignments.every(
      (a) =>
        a.value.static && (HARMLESS_ENV.has(a.name) || (ENV_BLIND.has(program) && !first?.includes('/'))),
    ),
    inertEnv: cmd.assignments.every(
      (a) =>
        a.value.static &&
        (HARMLESS_ENV.has(a.name) ||
          (!first?.includes('/') && (ENV_BLIND.has(program) || inertAssignment(program, a.name)))),
    ),
    extraArgs: cmd.nested?.extraArgs === true,
  };
}

function tildeLine(words: string[], home: string): string {
  let changed = false;
  const out = words.map((w) => {
    if (w === home) {
      changed = true;
      return '~';
    }
    if (w.length > home.length && w.startsWith(home) && w[home.length] === '/' && home !== '/') {
      changed = true;
      return `~${w.slice(home.length)}`;
    }
    return w;
  });
  return changed ? out.join(' ') : words.join(' ');
}

/**
 * Allow rules match strictly, as Claude Code documents: the whole command line (quote-removed, or as written),
 * every word known before the command runs, no environment prefix that could change the program's behaviour.
 * When a carrier appends arguments (xargs, find -exec {}), no rule can vouch for words it cannot see.
 */
export function allowMatches(p: BashPattern, v: CommandViews): boolean {
  if (!v.allStatic || !v.harmlessEnv || v.values.length === 0) return false;
  if (v.extraArgs) return false;
  if (matchBashPattern(p, v.raw) || (v.written !== v.raw && matchBashPattern(p, v.written))) return true;
  const moved = globalsLast(v);
  return (
    moved !== null &&
    (matchBashPattern(p, moved.raw) || (moved.written !== moved.raw && matchBashPattern(p, moved.written)))
  );
}

/**
 * A program that reads its own options after its subcommand as in front of it is matched by an allow rule in
 * either place: `Bash(kubectl get *)` allows `kubectl -n dev get pods` as it allows `kubectl get pods -n dev`.
 * Only options its spec knows, every word static, and no `--` (after which a moved option would be an operand).
 */
function globalsLast(v: CommandViews): GlobalsLast | null {
  if (v.globalsLast_ !== undefined) return v.globalsLast_;
  v.globalsLast_ = null;
  const spec = programSpec(v.program);
  if (!spec?.globalOptionsAnywhere || !v.allStatic || v.values.includes('--')) return null;
  const parsed = parseOptions(v.words, 1, spec.grammar, { permute: false });
  if (!parsed.ok || parsed.rest <= 1 || parsed.rest >= v.values.length) return null;
  const order = [0];
  for (let i = parsed.rest; i < v.values.length; i++) order.push(i);
  for (let i = 1; i < parsed.rest; i++) order.push(i);
  v.globalsLast_ = {
    order,
    raw: order.map((i) => v.values[i]).join(' '),
    written: order.map((i) => v.words[i]!.text).join(' '),
  };
  return v.globalsLast_;
}

/** The command's values with the words `hide` picks replaced by HIDDEN, in its own order and with globals last. */
function hiddenLines(v: CommandViews, hide: (index: number) => boolean): string[] {
  const line = (order: readonly number[]) => order.map((i) => (hide(i) ? HIDDEN : v.values[i])).join(' ');
  const lines = [line(v.values.map((_, i) => i))];
  const moved = globalsLast(v);
  if (moved) lines.push(line(moved.order));
  return lines;
}

/**
 * The program a Bash rule names (the basename of its first word), or undefined when its first word has a
 * wildcard: the rule index files Bash rules under it.
 */
export function ruleProgram(p: BashPattern): string | undefined {
  const first = p.prefixWords[0];
  return first === undefined ? undefined : basename(first);
}

/**
 * The words a rule can only match a command through, one of which every view of a matching command holds: its
 * first argument as written and as the program's spec reads it. Undefined when the rule can match without
 * either (no such word, an option, which matches in any spelling, a wildcard, `~` or `$HOME`).
 */
export function ruleArgumentKeys(p: BashPattern): string[] | undefined {
  const word = p.prefixWords[1];
  if (word === undefined || word.startsWith('-') || HOME_IN_RULE.test(p.source)) return undefined;
  const keys = [word];
  const shape = ruleShape(p);
  if (shape) {
    const positional = shape.rule.positionals[0];
    if (positional === undefined || positional.includes('*')) return undefined;
    if (positional !== word) keys.push(positional);
  }
  return keys;
}

/**
 * The words a rule's `ruleArgumentKeys` are looked up by: every word of every view a rule is matched against.
 * They do not narrow `mayMatch`, which holds for any rule of the program when a word is only known at run time.
 */
export function commandWords(v: CommandViews, home = ''): ReadonlySet<string> {
  if (v.words_ && v.words_.home === home) return v.words_.set;
  const set = new Set<string>();
  const add = (line: string) => {
    for (const w of line.split(' ')) set.add(w);
  };
  for (const line of [v.raw, v.based, v.written, v.tilde, lineOf(v)]) add(line);
  for (const w of normalizedOf(v).positionals) set.add(w);
  const push = uploadAsPush(v);
  if (push) add(push.line);
  if (home && v.homeSpelled) {
    v.resolvedNormalized ??= normalize(v.resolved);
    add(v.resolved.join(' '));
    add(v.resolvedNormalized.line);
    for (const w of v.resolvedNormalized.positionals) set.add(w);
  }
  v.words_ = { home, set };
  return set;
}

/**
 * Whether an allow rule matches one command as the classifier matches allow rules: a Bash pattern strictly
 * (`allowMatches`) and only for the program it names, a bare `Bash` rule always, a command-pattern regex for
 * Bash on the quote-removed line when every word is known and no carrier appends arguments.
 */
export function allowRuleMatches(rule: Rule, v: CommandViews): boolean {
  if (rule.behavior !== 'allow') return false;
  if (rule.type === 'pattern') {
    if (rule.field !== 'command' || (rule.tool !== 'Bash' && rule.tool !== '*')) return false;
    return v.allStatic && !v.extraArgs && matchPatternRule(rule, v.raw);
  }
  const parsed = rule.parsed;
  if (parsed.kind === 'tool') return parsed.tool === 'Bash';
  if (parsed.kind !== 'bash') return false;
  const program = ruleProgram(parsed.pattern);
  return (program === undefined || program === v.program) && allowMatches(parsed.pattern, v);
}

/**
 * Whether an allow rule names the words from `from` on, rather than covering them with a wildcard: a rule
 * covers code it can see (`Bash(python -c "print(1)")`), not code its `*` swallows (`Bash(python *)`).
 */
export function allowNames(p: BashPattern, v: CommandViews, from: number): boolean {
  if (from <= 0 || from >= v.values.length) return from <= 0;
  return !hiddenLines(v, (i) => i >= from).some((line) => matchBashPattern(p, line));
}

/** Whether the rule matches whatever word `at` holds: a wildcard stands for it, the rule does not name it. */
export function coversWord(p: BashPattern, v: CommandViews, at: number): boolean {
  if (at >= v.values.length) return true;
  return hiddenLines(v, (i) => i === at).some((line) => matchBashPattern(p, line));
}

/**
 * Deny and ask rules match robustly: through path-qualified names, global options between a program and its
 * subcommand, options in any order or grouping (`rm -fr`, `rm -r -f`, `rm --recursive --force` all hit
 * `rm -rf`), and `~`/`$HOME` spelled either way. Wrappers and environment prefixes need no handling here:
 * the wrapped command is its own part.
 */
export function denyMatches(p: BashPattern, v: CommandViews, home = ''): boolean {
  if (v.values.length === 0) return false;
  if (matchBashPattern(p, v.raw)) return true;
  if (v.based !== v.raw && matchBashPattern(p, v.based)) return true;
  const line = lineOf(v);
  if (line !== v.based && matchBashPattern(p, line)) return true;
  if (structuralMatch(p, normalizedOf(v))) return true;
  const push = uploadAsPush(v);
  if (push && (matchBashPattern(p, push.line) || structuralMatch(p, push))) return true;
  if (!home) return false;
  const rule = homeResolvedRule(p, home);
  if (rule === p && !v.homeSpelled) return false;
  v.resolvedNormalized ??= normalize(v.resolved);
  return (
    matchBashPattern(rule, v.resolved.join(' ')) ||
    matchBashPattern(rule, v.resolvedNormalized.line) ||
    structuralMatch(rule, v.resolvedNormalized)
  );
}

/** git commands that upload a repository's objects and refs, as `git push` does: a rule on `git push` names them. */
const UPLOADS: readonly (readonly string[])[] = [
  ['send-pack'],
  ['http-push'],
  ['svn', 'dcommit'],
  ['p4', 'submit'],
];

/** `git send-pack URL main` read as `git push URL main`; undefined for any other command. */
function uploadAsPush(v: CommandViews): NormalizedCommand | undefined {
  if (v.family !== 'git') return undefined;
  const cmd = normalizedOf(v);
  const words = cmd.line.split(' ');
  const upload = UPLOADS.find((u) => u.every((w, i) => words[i + 1] === w));
  if (!upload) return undefined;
  return normalize(['git', 'push', ...words.slice(1 + upload.length)]);
}

const homeRules = new WeakMap<BashPattern, { home: string; rule: BashPattern }>();
const HOME_IN_RULE = /(^| )(~|\$HOME|\$\{HOME\})(\/| |$)/;

function homeResolvedRule(p: BashPattern, home: string): BashPattern {
  const cached = homeRules.get(p);
  if (cached?.home === home) return cached.rule;
  let rule = p;
  if (HOME_IN_RULE.test(p.source)) {
    const source = p.source
      .split(' ')
      .map((w) => w.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home))
      .join(' ');
    rule = parseBashPattern(p.legacyColonStar ? `${source.replace(/ \*$/, '')}:*` : source).pattern;
  }
  homeRules.set(p, { home, rule });
  return rule;
}

const globs = new Map<string, RegExp>();

function globMatch(glob: string, word: string): boolean {
  if (!glob.includes('*')) return glob === word;
  let re = globs.get(glob);
  if (!re) {
    re = new RegExp(`^${glob.split('*').map(escapeRegex).join('[\\s\\S]*')}$`);
    globs.set(glob, re);
  }
  return re.test(word);
}

/** The rule's words read as a command: program, subcommand words in order (globs allowed), options as a set. */
interface RuleShape {
  rule: NormalizedCommand;
  prefix: boolean;
  /** A last option with a glued `*` (`--force*`): the command must have an option it covers. */
  glued?: GluedOption;
}

/** `--force*`: its own canonical names (`f` for git's `--force`) and the long names it is a prefix of. */
interface GluedOption {
  names: Set<string>;
  longPrefix?: string;
}

const shapes = new WeakMap<BashPattern, RuleShape | null>();

/**
 * A deny or ask rule that ends in an option with `*` glued to it (`Bash(git push --force*)`) covers at least
 * what the same rule with ` *` covers, in every spelling and place, and every longer option too
 * (`--force-with-lease`); `-rf*` requires each of its letters.
 */
function gluedOption(words: readonly string[], rule: NormalizedCommand, word: string): GluedOption {
  const option = word.slice(0, -1);
  // Read in place, after the rule's own words, so that the program (and subcommand) name the option.
  const names = new Set([...normalize([...words, option]).options].filter((name) => !rule.options.has(name)));
  return option.startsWith('--') ? { names, longPrefix: option.slice(2) } : { names };
}

/** The rule's words read as a command, once per rule; null when it has no such reading. */
function ruleShape(p: BashPattern): RuleShape | null {
  const wordBoundary = p.wordBoundary;
  let shape = shapes.get(p);
  if (shape === undefined) {
    let words = p.source.split(' ').filter(Boolean);
    let prefix = wordBoundary;
    let glued: string | undefined;
    if (wordBoundary) {
      const last = words[words.length - 1]!;
      if (last === '*') words = words.slice(0, -1);
      else if (last.endsWith(':*')) words = [...words.slice(0, -1), last.slice(0, -2)];
    } else if (words.length > 1 && /^-{1,2}[A-Za-z0-9][^*]*\*$/.test(words[words.length - 1]!)) {
      glued = words[words.length - 1]!;
      words = words.slice(0, -1);
      prefix = true;
    }
    const usable =
      words.length > 0 &&
      !words[0]!.includes('*') &&
      !words.some((w) => w.startsWith('-') && w.includes('*'));
    const rule = usable ? normalize(words) : undefined;
    shape = rule && !rule.positionals.includes('*') ? { rule, prefix } : null;
    if (shape && glued) shape.glued = gluedOption(words, rule!, glued);
    shapes.set(p, shape);
  }
  return shape;
}

function coversGlued(glued: GluedOption, options: ReadonlySet<string>): boolean {
  if (glued.longPrefix === undefined) {
    for (const name of glued.names) if (!options.has(name)) return false;
    return true;
  }
  for (const o of options) {
    if (glued.names.has(o) || (o.length > 1 && o.startsWith(glued.longPrefix))) return true;
  }
  return false;
}

/** The rule's words read as a command: program, subcommand words in order (globs allowed), options as a set. */
function structuralMatch(p: BashPattern, cmd: NormalizedCommand): boolean {
  const shape = ruleShape(p);
  if (!shape) return false;
  const { rule, prefix } = shape;
  if (rule.family !== cmd.family) return false;
  for (const o of rule.options) if (!cmd.options.has(o)) return false;
  if (shape.glued && !coversGlued(shape.glued, cmd.options)) return false;
  const positionals = rule.positionals;
  const given = positionals.includes('--') ? cmd.positionals : cmd.positionals.filter((w) => w !== '--');
  if (!prefix && positionals.length !== given.length) return false;
  if (positionals.length > given.length) return false;
  return positionals.every((w, i) => globMatch(w, given[i]!));
}

/**
 * A command whose words are partly unknown may turn out to be one a deny or ask rule names: `rm -rf $DIR` under
 * a deny on `rm -rf /`. True when some line the command can become at run time is one the rule matches in any
 * of the ways `denyMatches` reads it: as written (each run-time part any string, a word of run-time parts
 * alone possibly no word), through the program's subcommands and options in any order. `git diff $(date).txt`
 * cannot become a `git push`: the words in front of the first run-time word read the same whatever it holds.
 */
export function mayMatch(p: BashPattern, v: CommandViews, home = ''): boolean {
  if (v.allStatic || v.values.length === 0) return false;
  const program = p.source.split(' ')[0];
  if (program === undefined || program.includes('*') || basename(program) !== v.program) return false;
  if (!v.values.slice(1).some((w) => w.includes(DYN))) return false;
  if (possibleWith(p, v, v.values)) return true;
  if (!home) return false;
  const rule = homeResolvedRule(p, home);
  return (rule !== p || v.homeSpelled) && possibleWith(rule, v, v.resolved);
}

const UPLOAD_WORDS = new Set(UPLOADS.map((u) => u[0]!));

function possibleWith(p: BashPattern, v: CommandViews, values: readonly string[]): boolean {
  if (!values.some((w, i) => i > 0 && w.includes(DYN))) return false;
  const rule = rulePieces(p);
  const words = values.map((value, i) => wordPieces(value, v.words[i]!));
  if (intersects(rule, lineTemplate(words))) return true;
  const first = values[0]!;
  if (first.includes('/') && intersects(rule, lineTemplate([[basename(first)], ...words.slice(1)])))
    return true;
  if (v.family === 'git' && values.some((w) => UPLOAD_WORDS.has(w))) return true;
  const spec = fixedReading(v.program, values, v.words, words);
  if (intersects(rule, [...spec.line, { optional: [' ', ANY] }])) return true;
  if (structurallyPossible(p, spec.positionals)) return true;
  return dashPossible(p, dashReading(values, v.words));
}

/** A positional of the dash reading; `maybe` when the word may instead be an option (or `--`). */
interface Positional {
  pieces: Piece[];
  maybe: boolean;
}

/** What the dash reading fixes: positionals, options, and whether words after them may add more. */
interface DashReading {
  positionals: Positional[];
  options: Set<string>;
  open: boolean;
}

/**
 * The positionals and options a command's words fix when its options are the words that start with a dash, up
 * to `--` (how `normalize` reads it when the program's own reading fails): up to the first word that may expand
 * to several words or none. A one-word run-time value that could start with a dash may be an option or `--`.
 */
function dashReading(values: readonly string[], words: readonly Word[]): DashReading {
  const positionals: Positional[] = [];
  const options = new Set<string>();
  let ended = false;
  let mayEnd = false;
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!;
    const word = words[i]!;
    if (word.static) {
      if (!ended && value === '--') {
        ended = true;
        positionals.push({ pieces: ['--'], maybe: false });
      } else if (!ended && value.length > 1 && value.startsWith('-') && !/^-\d+$/.test(value)) {
        if (mayEnd) positionals.push({ pieces: [value], maybe: true });
        else for (const name of normalize(['', value]).options) options.add(name);
      } else {
        positionals.push({ pieces: [value], maybe: false });
      }
      continue;
    }
    if (!oneWord(word)) return { positionals, options, open: true };
    const pieces = wordPieces(value, word);
    const dashed = !ended && intersects(pieces, ['-', ANY]);
    positionals.push({ pieces, maybe: dashed });
    if (dashed && intersects(pieces, ['--'])) mayEnd = true;
  }
  return { positionals, options, open: false };
}

/**
 * Whether a command the dash reading describes can match the rule's reading as a command: each `maybe`
 * positional either one or an option, which may then be any the rule needs.
 */
function dashPossible(p: BashPattern, reading: DashReading): boolean {
  const shape = ruleShape(p);
  if (!shape) return false;
  const { rule, prefix, glued } = shape;
  const positionals = rule.positionals;
  const keepDashes = positionals.includes('--');
  const items = reading.positionals.map((f) => ({
    ...f,
    maybe: f.maybe || (!keepDashes && intersects(f.pieces, ['--'])),
  }));
  const given = keepDashes ? items : items.filter((f) => !(f.pieces.length === 1 && f.pieces[0] === '--'));
  const optionsHeld = (skipped: boolean) =>
    skipped ||
    reading.open ||
    ([...rule.options].every((o) => reading.options.has(o)) &&
      (!glued || coversGlued(glued, reading.options)));
  const possible = (i: number, r: number, skipped: boolean): boolean => {
    if (i === given.length) return reading.open || (r === positionals.length && optionsHeld(skipped));
    const item = given[i]!;
    if (r === positionals.length) {
      const rest = given.slice(i);
      if (!prefix && !rest.every((f) => f.maybe)) return false;
      return optionsHeld(skipped || rest.some((f) => f.maybe));
    }
    if (item.maybe && possible(i + 1, r, true)) return true;
    return intersects(patternPieces(positionals[r]!, false), item.pieces) && possible(i + 1, r + 1, skipped);
  };
  return possible(0, 0, false);
}

const rulePiecesCache = new WeakMap<BashPattern, Piece[]>();

function rulePieces(p: BashPattern): Piece[] {
  let pieces = rulePiecesCache.get(p);
  if (!pieces) {
    const body = p.legacyColonStar
      ? p.source.slice(0, -2).trimEnd()
      : p.wordBoundary
        ? p.source.slice(0, -2)
        : p.source;
    pieces = patternPieces(body, p.wordBoundary);
    rulePiecesCache.set(p, pieces);
  }
  return pieces;
}

/** A word's value as pieces, each run-time part any string; a word with a glob and a run-time part any string. */
function wordPieces(value: string, word: Pick<Word, 'dynamic'>): Piece[] {
  if (!value.includes(DYN)) return [value];
  if (word.dynamic.some((d) => d === 'glob' || d === 'extglob')) return [ANY];
  const pieces: Piece[] = [];
  value.split(DYN).forEach((text, i) => {
    if (i > 0) pieces.push(ANY);
    if (text !== '') pieces.push(text);
  });
  return pieces;
}

/** The words joined by spaces; a word of run-time parts alone may expand to no word at all. */
function lineTemplate(words: readonly Piece[][]): Piece[] {
  const out: Piece[] = [...words[0]!];
  for (const pieces of words.slice(1)) {
    const spaced: Piece[] = [' ', ...pieces];
    out.push(...(pieces.every((p) => p === ANY) ? [{ optional: spaced }] : spaced));
  }
  return out;
}

/** `"$x"`, `"/tmp/$x"`: one word whatever it holds (no splitting, never no word). */
function oneWord(word: Word): boolean {
  return singleField(word) && !word.text.includes('@');
}

/** A word that is one word at run time and, starting with known text that is no dash, never an option. */
function plainOperand(value: string, word: Word): boolean {
  return word.static || (oneWord(word) && !value.startsWith(DYN) && !/^[-+]/.test(value));
}

/**
 * What the words in front of the first word that could read as anything fix, however the rest reads, in the
 * program's own reading: the start of its normalised line (program and subcommands, then the words after the
 * last subcommand when no later word can name another) and its first positionals. A run-time word counts as
 * fixed when it is one word that cannot be an option or is the value of the option before it (`-C "$dir"`).
 */
function fixedReading(
  program: string,
  values: readonly string[],
  words: readonly Word[],
  pieces: readonly Piece[][],
): { line: Piece[]; positionals: Piece[][] } {
  const unknown = { line: [program], positionals: [] };
  const spec = familySpec(program);
  if (!spec) return unknown;
  const read = (n: number) =>
    parseCommand(
      spec,
      values.slice(0, n).map((value, i) => (i === 0 ? valueWord(program) : { ...words[i]!, value })),
      { unknown: 'flag', dynamic: 'operand' },
    );
  let end = 1;
  while (end < values.length) {
    const word = words[end]!;
    if (!plainOperand(values[end]!, word)) {
      if (!oneWord(word)) break;
      const parsed = read(end + 1);
      const taken =
        parsed.ok && parsed.levels.some((l) => l.parsed.options.some((o) => o.value?.span === word.span));
      if (!taken) break;
    }
    end++;
  }
  for (; end >= 1; end--) {
    const parsed = read(end);
    if (!parsed.ok) continue;
    const wordAt = (i: number) => pieces[i]!;
    const names = parsed.levels.slice(1).map((l) => [l.name.slice(l.name.lastIndexOf(' ') + 1)]);
    const head = (): Piece[] => [program, ...names.flatMap((n) => [' ', ...n])];
    const unknownAt = parsed.unknownSubcommand?.index;
    if (unknownAt !== undefined) {
      if (!words[unknownAt]!.static) continue;
      const tail = values.slice(unknownAt, end);
      const rest = normalize(['', ...tail]).positionals.map((w) => [w]);
      const line = [...head(), ...tail.flatMap((_, k) => [' ', ...wordAt(unknownAt + k)])];
      return { line, positionals: [...names, ...rest] };
    }
    const last = parsed.levels[parsed.levels.length - 1]!;
    if (spec.subcommands && last.spec.subcommands) return { line: head(), positionals: names };
    const from = spec.subcommands ? last.index + 1 : 1;
    const line: Piece[] = [...(spec.subcommands ? head() : [program])];
    for (let i = from; i < end; i++) line.push(' ', ...wordAt(i));
    if (last.spec.normalizeOperands) return { line, positionals: names };
    const dashdash = last.parsed.dashdash;
    const given: Piece[][] = [];
    for (const index of last.parsed.operands) {
      if (dashdash !== undefined && index === dashdash + 1) given.push(['--']);
      given.push(wordAt(index));
    }
    if (dashdash !== undefined && !last.parsed.operands.includes(dashdash + 1)) given.push(['--']);
    return { line, positionals: [...names, ...given] };
  }
  return unknown;
}

/** Whether a command whose positionals start with `fixed` can match the rule's reading as a command. */
function structurallyPossible(p: BashPattern, fixed: readonly Piece[][]): boolean {
  const shape = ruleShape(p);
  if (!shape) return false;
  const { rule, prefix } = shape;
  const positionals = rule.positionals;
  const isDashes = (w: readonly Piece[]) => w.length === 1 && w[0] === '--';
  const given = positionals.includes('--') ? fixed : fixed.filter((w) => !isDashes(w));
  if (!prefix && given.length > positionals.length) return false;
  return given.every(
    (w, i) => i >= positionals.length || intersects(patternPieces(positionals[i]!, false), w),
  );
}

/** Stands for an option's value in the line pattern rules read for verbs (`az --query _ vm show`). */
const VALUE = '_';

/**
 * The words that are option values, as the program's spec reads the line, each with its option as written:
 * `delete` in `az --query delete vm show` is `--query`'s. Where the spec leaves a level's words to the program
 * (cloud CLIs read their global options anywhere), a word after a global option that takes a value is one too.
 */
export function optionValueIndexes(v: CommandViews): ReadonlyMap<number, string> {
  if (v.optionValues) return v.optionValues;
  const out = new Map<number, string>();
  v.optionValues = out;
  const spec = familySpec(v.program);
  if (!spec || v.words.length < 3) return out;
  const mode = { unknown: 'flag', dynamic: 'operand' } as const;
  let parsed = parseCommand(spec, v.words, mode);
  if (!parsed.ok) return out;
  // `az --subscription delete vm list`: an option the root does not know, read as a flag, leaves `delete` an
  // unknown subcommand; the command the line names without that word reads the option as taking a value.
  const stray = parsed.unknownSubcommand;
  const option = stray ? v.words[stray.index - 1] : undefined;
  if (stray && option?.static && /^--[^=]+$/.test(option.value)) {
    const fewer = [...v.words.slice(0, stray.index), ...v.words.slice(stray.index + 1)];
    const again = parseCommand(spec, fewer, mode);
    const level = again.ok && !again.unknownSubcommand ? again.levels.at(-1) : undefined;
    if (again.ok && level && level.spec.grammar.long.get(option.value.slice(2))?.arity === 'value') {
      out.set(stray.index, option.value);
      parsed = again;
    }
  }
  for (const level of parsed.levels) {
    for (const option of level.parsed.options) {
      const at = option.value ? v.words.indexOf(option.value) : -1;
      if (at > option.index) out.set(at, v.values[option.index]!);
    }
  }
  const last = parsed.levels.at(-1)!;
  const leftToProgram = last.spec.subcommands && Object.keys(last.spec.subcommands).length === 0;
  if (leftToProgram) {
    for (let i = last.index + 1; i < v.values.length - 1; i++) {
      const word = v.values[i]!;
      if (!word.startsWith('--') || word.includes('=')) continue;
      if (spec.grammar.long.get(word.slice(2))?.arity === 'value') out.set(i + 1, word);
    }
  }
  return out;
}

/**
 * Whether a rule's text is about an option: it spells the long option whole (`--context`, not `--context-x`),
 * a short one's letter as `-o`, or inside a class of letters after a dash (`-[a-z]*R`).
 */
function namesOption(ruleText: string, option: string): boolean {
  const long = /^--([^=]+)/.exec(option);
  if (long) return new RegExp(`--${escapeRegex(long[1]!)}(?![\\w-])`).test(ruleText);
  const letters = [...option.slice(1)];
  const classes = /-\[/.test(ruleText);
  return (
    letters.length === 0 ||
    letters.some((l) => ruleText.includes(`-${l}`) || (classes && ruleText.includes(l)))
  );
}

/**
 * The lines a pattern rule reads with every option value written `_`, but the values of the options the rule's
 * own text names (`--context[= ]prod` is about `--context`'s value): a rule about a verb (`delete`) is not about
 * a value that happens to spell it. Undefined when there is no value to leave out.
 */
export function verbLines(v: CommandViews, ruleText: string): string[] | undefined {
  const at = new Set<number>();
  for (const [index, option] of optionValueIndexes(v)) {
    if (!namesOption(ruleText, option)) at.add(index);
  }
  if (at.size === 0) return undefined;
  const mask = (words: readonly string[]) => words.map((w, i) => (at.has(i) ? VALUE : w));
  const based = mask(v.values);
  if (based[0]?.includes('/')) based[0] = basename(based[0]);
  const lines = [mask(v.values).join(' '), based.join(' '), mask(v.resolved).join(' ')];
  if (v.subcommands) lines.push(normalize(mask(v.values)).line, normalize(mask(v.resolved)).line);
  return lines;
}
