import type { CommandView, NestedSpec } from '../nested.js';
import type { Word } from '../types.js';
import {
  type Grammar,
  grammar,
  has,
  optionsNamed,
  optionText,
  type Parsed,
  parseOptions,
} from './options.js';
import { argvSpec, codeIn, codeSpec, type Handler, parseFailure, shellSpec, unresolved } from './specs.js';
import { concatWords, is, joinWords, leadingText, quotedWords, runtimeWord, sliceWord } from './words.js';

export const GIT_GLOBAL = grammar({
  flags: 'pPvh',
  values: 'Cc',
  long:
    'config-env= exec-path? git-dir= work-tree= namespace= super-prefix= list-cmds= attr-source= paginate/p ' +
    'no-pager/P no-replace-objects no-lazy-fetch bare literal-pathspecs glob-pathspecs noglob-pathspecs ' +
    'icase-pathspecs no-optional-locks no-advice version/v help/h html-path man-path info-path',
});

type ConfigRisk = 'command' | 'environment';

/** Configuration keys (lower-cased) whose value is a command git runs, or that change what git loads. */
const CONFIG_KEYS: [RegExp, ConfigRisk][] = [
  [/^core\.(pager|sshcommand|editor|fsmonitor|askpass|gitproxy)$/, 'command'],
  [/^sequence\.editor$/, 'command'],
  [/^diff\.external$/, 'command'],
  [/^diff\..+\.(command|textconv)$/, 'command'],
  [/^merge\..+\.driver$/, 'command'],
  [/^filter\..+\.(clean|smudge|process)$/, 'command'],
  [/^pager\..+$/, 'command'],
  [/^credential\.(.+\.)?helper$/, 'command'],
  [/^gpg\.(.+\.)?program$/, 'command'],
  [/^remote\..+\.(uploadpack|receivepack)$/, 'command'],
  [/^(diff|merge)tool\..+\.(cmd|path)$/, 'command'],
  [/^web\.browser$/, 'command'],
  [/^(browser|man)\..+\.(cmd|path)$/, 'command'],
  [/^sendemail\.(.+\.)?(sendmailcmd|tocmd|cccmd|headercmd|smtpserver)$/, 'command'],
  [/^interactive\.difffilter$/, 'command'],
  [/^submodule\..+\.update$/, 'command'],
  [/^trailer\..+\.(command|cmd)$/, 'command'],
  [/^uploadpack\.packobjectshook$/, 'command'],
  [/^core\.(hookspath|worktree)$/, 'environment'],
  [/^include(if\..+)?\.path$/, 'environment'],
  [/^init\.templatedir$/, 'environment'],
  [/^protocol\./, 'environment'],
  [/^url\..+\.(insteadof|pushinsteadof)$/, 'environment'],
  [/^safe\.directory$/, 'environment'],
];

const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** The command a configuration value names, or undefined when the value is not a command. */
function configCommand(key: string, value: Word): Word | undefined {
  const lead = leadingText(value);
  if (lead.startsWith('!')) return sliceWord(value, 1);
  if (/^(submodule\..+\.update)$/.test(key)) return undefined;
  if (/^(pager\.|core\.pager$|core\.fsmonitor$)/.test(key) && value.static && BOOLEAN.test(value.value)) {
    return undefined;
  }
  if (value.static && value.value === '') return undefined;
  if (/^credential\./.test(key) && !lead.startsWith('/') && !/\s/.test(value.value)) {
    return concatWords('git credential-', value);
  }
  return value;
}

/** What `-c key=value` makes git run. `sub` and `rest` let a plain alias expand to the git command it is. */
export function configSpecs(setting: Word, sub: Word | undefined, rest: Word[]): NestedSpec[] {
  const lead = leadingText(setting);
  const eq = lead.indexOf('=');
  if (eq < 0 && !setting.static)
    return [unresolved(`git -c ${setting.text}: key only known at run time`, setting)];
  if (eq < 0) return [];
  const key = lead.slice(0, eq).toLowerCase();
  const value = sliceWord(setting, eq + 1);
  return keySpecs(key, value, sub, rest);
}

function keySpecs(key: string, value: Word, sub: Word | undefined, rest: Word[]): NestedSpec[] {
  if (key.startsWith('alias.')) {
    const name = key.slice('alias.'.length);
    if (leadingText(value).startsWith('!') || !value.static) {
      const command = leadingText(value).startsWith('!') ? sliceWord(value, 1) : value;
      return [shellSpec(command, `alias.${name}`)];
    }
    if (sub && is(sub, name)) {
      const script = concatWords('git ', value);
      const tail = rest.length ? quotedWords(rest) : undefined;
      const full = tail
        ? {
            ...script,
            value: `${script.value} ${tail.value}`,
            static: script.static && tail.static,
            dynamic: tail.dynamic,
          }
        : script;
      return [shellSpec(full, `alias.${name}`)];
    }
    return [];
  }
  const risk = CONFIG_KEYS.find(([pattern]) => pattern.test(key))?.[1];
  if (risk === 'environment') return [codeIn('environment', 'git', key, value)];
  if (risk === 'command') {
    const command = configCommand(key, value);
    return command ? [shellSpec(command, key)] : [];
  }
  return [];
}

interface SubRule {
  grammar: Grammar;
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

const DIFF = grammar({
  values: 'nLSGO',
  long:
    'max-count=/n skip= since= after= until= before= author= committer= grep= format= pretty? output= ' +
    'encoding= diff-filter= relative? stat? ext-diff textconv no-ext-diff',
});

const SUBCOMMANDS: Record<string, SubRule> = {
  fetch: {
    grammar: grammar({
      values: 'oj',
      long:
        'upload-pack= server-option=/o depth= deepen= shallow-since= shallow-exclude= refmap= jobs=/j ' +
        'negotiation-tip= recurse-submodules? submodule-prefix= filter=',
    }),
    shell: ['--upload-pack'],
  },
  pull: {
    grammar: grammar({
      values: 'osXjS',
      long:
        'upload-pack= server-option=/o depth= deepen= shallow-since= shallow-exclude= refmap= jobs=/j ' +
        'negotiation-tip= recurse-submodules? strategy=/s strategy-option=/X rebase? gpg-sign?/S log? cleanup=',
    }),
    shell: ['--upload-pack'],
  },
  clone: {
    grammar: grammar({
      values: 'boucj',
      long:
        'branch=/b origin=/o upload-pack=/u config=/c template= depth= reference= reference-if-able= ' +
        'separate-git-dir= filter= jobs=/j shallow-since= shallow-exclude= bundle-uri= server-option= ' +
        'ref-format= revision=',
    }),
    shell: ['u'],
    config: ['c'],
    environment: ['--template'],
  },
  'ls-remote': {
    grammar: grammar({ values: 'uo', long: 'upload-pack=/u server-option=/o sort=' }),
    shell: ['u'],
  },
  archive: {
    grammar: grammar({
      values: 'o',
      long: 'exec= remote= output=/o format= prefix= add-file= add-virtual-file= mtime=',
    }),
    shell: ['--exec'],
  },
  'fetch-pack': {
    grammar: grammar({ long: 'upload-pack= exec= depth=' }),
    shell: ['--upload-pack', '--exec'],
  },
  push: {
    grammar: grammar({
      values: 'o',
      long: 'receive-pack= exec= repo= push-option=/o signed? force-with-lease? recurse-submodules=',
    }),
    shell: ['--receive-pack', '--exec'],
  },
  'send-pack': { grammar: grammar({ long: 'receive-pack= exec=' }), shell: ['--receive-pack', '--exec'] },
  difftool: {
    grammar: grammar({ values: 'tx', long: 'tool=/t extcmd=/x tool-help' }),
    shell: ['x'],
    runsTool: true,
  },
  mergetool: { grammar: grammar({ values: 't', long: 'tool=/t tool-help' }), runsTool: true },
  rebase: {
    grammar: grammar({
      flags: 'i',
      values: 'xsXC',
      long:
        'exec=/x onto= strategy=/s strategy-option=/X whitespace= empty= rebase-merges? gpg-sign?/S ' +
        'interactive/i edit-todo',
    }),
    shell: ['x'],
    programs: ['i', '--edit-todo'],
  },
  grep: {
    grammar: grammar({
      values: 'efABCm',
      optional: 'O',
      long: 'open-files-in-pager?/O max-depth= threads= max-count=/m context=/C after-context=/A before-context=/B',
    }),
    programs: ['O'],
  },
  'filter-branch': {
    grammar: grammar({
      values: 'd',
      long:
        'tree-filter= index-filter= msg-filter= env-filter= commit-filter= parent-filter= tag-name-filter= ' +
        'setup= subdirectory-filter= original= state-branch=',
    }),
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
  'send-email': {
    grammar: grammar({ long: 'smtp-server= to-cmd= cc-cmd= header-cmd= sendmail-cmd=' }),
    shell: ['--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd', '--sendmail-cmd'],
  },
  config: { grammar: grammar({ flags: 'e', long: 'edit/e' }), programs: ['e'] },
  diff: { grammar: DIFF, programs: ['--ext-diff'] },
  log: { grammar: DIFF, programs: ['--ext-diff'] },
  show: { grammar: DIFF, programs: ['--ext-diff'] },
  whatchanged: { grammar: DIFF, programs: ['--ext-diff'] },
  'format-patch': { grammar: DIFF, programs: ['--ext-diff'] },
  'range-diff': { grammar: DIFF, programs: ['--ext-diff'] },
  'diff-tree': { grammar: DIFF, programs: ['--ext-diff'] },
  'diff-index': { grammar: DIFF, programs: ['--ext-diff'] },
  'diff-files': { grammar: DIFF, programs: ['--ext-diff'] },
};

/** Commands git has built in (or ships); any other subcommand is an alias or a `git-NAME` program. */
export const GIT_COMMANDS = new Set(
  (
    'add am annotate apply archimport archive bisect blame branch bugreport bundle cat-file check-attr ' +
    'check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean ' +
    'clone column commit commit-graph commit-tree config count-objects credential credential-cache ' +
    'credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff diff-files diff-index ' +
    'diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref ' +
    'for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id gitk gitweb grep gui ' +
    'hash-object help hook http-backend http-fetch http-push imap-send index-pack init init-db instaweb ' +
    'interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base ' +
    'merge-file merge-index merge-one-file merge-tree mergetool mktag mktree multi-pack-index mv name-rev ' +
    'notes p4 pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push quiltimport ' +
    'range-diff read-tree rebase receive-pack reflog refs remote repack replace replay request-pull rerere ' +
    'reset restore rev-list rev-parse revert rm scalar send-email send-pack sh-i18n sh-setup shortlog show ' +
    'show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule svn switch ' +
    'symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive ' +
    'upload-pack var verify-commit verify-pack verify-tag version web--browse whatchanged worktree ' +
    'write-tree lfs'
  ).split(' '),
);

const ENVIRONMENT_OPTIONS = ['--git-dir', '--work-tree', '--exec-path'];

export interface GitCommand {
  parsed: Parsed;
  sub?: Word;
  subIndex: number;
}

export function parseGit(words: readonly Word[]): GitCommand | NestedSpec {
  const parsed = parseOptions(words, 1, GIT_GLOBAL);
  if (!parsed.ok) return parseFailure('git', parsed);
  const sub = words[parsed.rest];
  return { parsed, subIndex: parsed.rest, ...(sub ? { sub } : {}) };
}

function git(cmd: CommandView): NestedSpec[] {
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
  const rule = SUBCOMMANDS[name];
  if (!rule) return [];
  const parsed = parseOptions(words, subIndex + 1, rule.grammar, {
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

export const GIT: Record<string, Handler> = { git };
