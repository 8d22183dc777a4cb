import type { CommandView, NestedSpec, Word } from '../../types.js';
import { has, optionsNamed, optionText, type Parsed, parseOptions } from '../options.js';
import { argvSpec, codeIn, codeSpec, parseFailure, shellSpec, unresolved } from '../specs.js';
import { is, joinWords, leadingText, runtimeWord } from '../words.js';
import { configSpecs, keySpecs } from './config.js';
import { GIT_GLOBAL, GIT_SPEC, gitLevel } from './spec.js';

/** What a git command's options make git run, besides the command itself. */
interface Runs {
  /** Options whose value is a shell command. */
  shell?: string[];
  /** Options whose value is `key=value` configuration (`clone -c`). */
  config?: string[];
  /** Options that make git run a program from its configuration (a pager, an editor, a diff tool). */
  programs?: string[];
  /** Options that change what git loads (`clone --template` brings hooks). */
  environment?: string[];
  /** The subcommand always runs a configured program (difftool). */
  runsTool?: boolean;
}

const EXT_DIFF: Runs = { programs: ['--ext-diff'] };

const RUNS: Record<string, Runs> = {
  fetch: { shell: ['--upload-pack'] },
  pull: { shell: ['--upload-pack'] },
  clone: { shell: ['u'], config: ['c'], environment: ['--template'] },
  'ls-remote': { shell: ['--upload-pack', '--exec'] },
  archive: { shell: ['--exec'] },
  'fetch-pack': { shell: ['--upload-pack', '--exec'] },
  push: { shell: ['--receive-pack', '--exec'] },
  'send-pack': { shell: ['--receive-pack', '--exec'] },
  difftool: { shell: ['x'], runsTool: true },
  mergetool: { runsTool: true },
  rebase: { shell: ['x'], programs: ['i', '--edit-todo'] },
  grep: { programs: ['O'] },
  'filter-branch': {
    shell: [
      '--tree-filter',
      '--index-filter',
      '--msg-filter',
      '--env-filter',
      '--commit-filter',
      '--parent-filter',
      '--tag-name-filter',
      '--setup',
    ],
  },
  'send-email': { shell: ['--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd', '--sendmail-cmd'] },
  config: { programs: ['e'] },
  diff: EXT_DIFF,
  log: EXT_DIFF,
  show: EXT_DIFF,
  whatchanged: EXT_DIFF,
  'format-patch': EXT_DIFF,
  'range-diff': EXT_DIFF,
  'diff-tree': EXT_DIFF,
  'diff-index': EXT_DIFF,
  'diff-files': EXT_DIFF,
};

/** Commands git has built in (or ships) that automode has no grammar for. */
const OTHER_COMMANDS =
  'archimport check-ref-format citool credential cvsexportcommit cvsimport cvsserver daemon fast-import ' +
  'fsmonitor--daemon get-tar-commit-id gitk gitweb gui http-backend http-fetch http-push imap-send index-pack ' +
  'instaweb mailsplit merge-index merge-one-file p4 pack-redundant quiltimport receive-pack refs replay ' +
  'request-pull scalar sh-i18n sh-setup svn unpack-file unpack-objects upload-archive upload-pack var ' +
  'web--browse lfs';

/** Commands git has built in (or ships); any other subcommand is an alias or a `git-NAME` program. */
export const GIT_COMMANDS: ReadonlySet<string> = new Set([
  ...Object.keys(GIT_SPEC.subcommands ?? {}),
  ...Object.keys(GIT_SPEC.subcommandAliases ?? {}),
  ...OTHER_COMMANDS.split(' '),
]);

const ENVIRONMENT_OPTIONS = ['--git-dir', '--work-tree', '--exec-path'];

export interface GitCommand {
  /** The options before the subcommand. */
  parsed: Parsed;
  sub?: Word;
  subIndex: number;
}

/** git's options up to the subcommand, and the subcommand word. */
export function parseGit(words: readonly Word[]): GitCommand | NestedSpec {
  const parsed = parseOptions(words, 1, GIT_GLOBAL);
  if (!parsed.ok) return parseFailure('git', parsed);
  const sub = words[parsed.rest];
  return { parsed, subIndex: parsed.rest, ...(sub ? { sub } : {}) };
}

export function gitNested(cmd: CommandView): NestedSpec[] {
  const words = cmd.argv;
  const found = parseGit(words);
  if ('kind' in found) return [found];
  const { parsed, sub, subIndex } = found;
  const rest = words.slice(subIndex + 1);
  const specs: NestedSpec[] = [];
  for (const { name, value, index } of parsed.options) {
    if (name === 'c') specs.push(...configSpecs(value!, sub, rest));
    else if (name === '--config-env') specs.push(...configEnv(value!, sub, rest));
    else if (name === 'p') specs.push(codeSpec('program-option', 'git', '--paginate', words[index]!));
    else if (value && ENVIRONMENT_OPTIONS.includes(name)) {
      specs.push(codeIn('environment', 'git', optionText(name), value));
    }
  }
  if (!sub || has(parsed, 'v', 'h')) return specs;
  if (!sub.static) return [...specs, unresolved('git subcommand only known at run time', sub)];
  return [...specs, ...subcommandSpecs(sub, subIndex, words, hasAlias(parsed, sub))];
}

function hasAlias(parsed: Parsed, sub: Word): boolean {
  return optionsNamed(parsed, 'c').some((option) =>
    option.value!.value.toLowerCase().startsWith(`alias.${sub.value}=`),
  );
}

function configEnv(setting: Word, sub: Word | undefined, rest: Word[]): NestedSpec[] {
  const lead = leadingText(setting);
  const eq = lead.indexOf('=');
  if (eq < 0) return [unresolved(`git --config-env ${setting.text}: key only known at run time`, setting)];
  return keySpecs(lead.slice(0, eq).toLowerCase(), runtimeWord(setting.text, setting.span), sub, rest);
}

function subcommandSpecs(
  sub: Word,
  subIndex: number,
  words: readonly Word[],
  aliased: boolean,
): NestedSpec[] {
  const name = sub.value;
  const args = words.slice(subIndex + 1);
  if (name === 'bisect' && is(args[0], 'run')) {
    return args.length > 1 ? [argvSpec(args.slice(1), 'git bisect run', { kind: 'option' })] : [];
  }
  if (name === 'submodule') {
    const foreach = args.findIndex((word) => is(word, 'foreach'));
    if (foreach < 0) return [];
    let command = args.slice(foreach + 1);
    while (command[0] && is(command[0], '--recursive', '-q', '--quiet')) command = command.slice(1);
    return command.length ? [shellSpec(joinWords(command), 'git submodule foreach')] : [];
  }
  if (!GIT_COMMANDS.has(name)) {
    return aliased ? [] : [codeSpec('program-option', 'git', 'alias or git-* program', sub, name)];
  }
  const canonical = GIT_SPEC.subcommandAliases?.[name] ?? name;
  const rule = RUNS[canonical];
  const level = gitLevel(canonical);
  if (!rule || !level) return [];
  const parsed = parseOptions(words, subIndex + 1, level.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return [parseFailure(`git ${name}`, parsed)];
  const suspect = parsed.suspects.map((index) => words[index]!)[0];
  if (suspect && (rule.shell || rule.config || rule.environment)) {
    return [unresolved(`git ${name}: ${suspect.text} may be an option that runs a program`, suspect)];
  }
  const specs: NestedSpec[] = [];
  for (const { name: option, value, index } of parsed.options) {
    const via = `git ${name} ${optionText(option)}`;
    if (rule.programs?.includes(option)) {
      specs.push(
        value
          ? codeIn('program-option', 'git', via, value)
          : codeSpec('program-option', 'git', via, words[index]!),
      );
    }
    if (!value) continue;
    if (rule.shell?.includes(option)) specs.push(shellSpec(value, via));
    if (rule.config?.includes(option)) specs.push(...configSpecs(value, undefined, []));
    if (rule.environment?.includes(option)) specs.push(codeIn('environment', 'git', via, value));
  }
  if (rule.runsTool && !has(parsed, 'x', '--tool-help')) {
    specs.push(codeSpec('program-option', 'git', `git ${name}`, sub));
  }
  return specs;
}
