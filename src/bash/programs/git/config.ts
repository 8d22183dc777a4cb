import type { NestedSpec, Word } from '../../types.js';
import { codeIn, shellSpec, unresolved } from '../specs.js';
import { concatWords, is, leadingText, quotedWords, sliceWord } from '../words.js';

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

export function keySpecs(key: string, value: Word, sub: Word | undefined, rest: Word[]): NestedSpec[] {
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
  return HARMLESS_KEYS.test(key) ? [] : [codeIn('environment', 'git', key, value)];
}

/**
 * Settings known to change only how git shows things or whom it names as author. Any other setting given on the
 * command line may change what a command does (`clean.requireForce=false` makes `git clean -d` delete,
 * `pull.rebase=true` makes `git pull` rebase), which no rule on the command's words can see.
 */
const HARMLESS_KEYS = new RegExp(
  '^(?:color\\..+|user\\.(?:name|email)|author\\.(?:name|email)|committer\\.(?:name|email)|advice\\..+|' +
    'core\\.(?:quotepath|abbrev)|init\\.defaultbranch|i18n\\..+|column\\..+|' +
    'diff\\.(?:algorithm|renames|colormoved|context|interhunkcontext|mnemonicprefix|noprefix|relative|statgraphwidth)|' +
    'merge\\.conflictstyle|status\\.(?:short|branch|showstash|relativepaths|showuntrackedfiles|aheadbehind)|' +
    'log\\.(?:date|decorate|abbrevcommit|follow|mailmap|showroot)|blame\\.(?:date|coloring|showemail)|' +
    'format\\.pretty|grep\\.(?:linenumber|column|patterntype|extendedregexp|fullname)|' +
    'versionsort\\.suffix|tag\\.sort|branch\\.sort)$',
);
