import type { CommandView, NestedSpec, Word } from '../types.js';
import { type Grammar, grammar, optionsNamed, type Parsed, parseOptions } from './options.js';
import { codeIn, codeSpec, type Handler, parseFailure, shellSpec, unresolved } from './specs.js';
import { is, leadingText, singleField, sliceWord } from './words.js';

/** Options are read GNU style (anywhere before `--`); a word that may be an option fails the analysis. */
export function scan(cmd: CommandView, g: Grammar, start = 1, permute = true): Parsed | NestedSpec {
  const parsed = parseOptions(cmd.argv, start, g, { permute, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return parseFailure(cmd.program, parsed);
  const suspect = parsed.suspects[0];
  if (suspect === undefined) return parsed;
  const word = cmd.argv[suspect]!;
  return unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word);
}

export function failed(parsed: Parsed | NestedSpec): parsed is NestedSpec {
  return 'kind' in parsed;
}

/** less +CMD runs less commands at start; `!` runs a shell command, `|` pipes to one. */
function less(cmd: CommandView): NestedSpec[] {
  const specs: NestedSpec[] = [];
  for (const word of cmd.argv.slice(1)) {
    if (is(word, '--')) break;
    const lead = leadingText(word);
    if (lead === '' && !word.static) return [unresolved(`less: ${word.text} may be a +command`, word)];
    if (!lead.startsWith('+')) continue;
    const bang = word.value.indexOf('!');
    const pipe = word.value.indexOf('|');
    if (bang >= 0) specs.push(shellSpec(sliceWord(word, bang + 1), 'less +!'));
    else if (pipe >= 0) specs.push(shellSpec(sliceWord(word, pipe + 2), 'less +|'));
    else if (!word.static) specs.push(shellSpec(sliceWord(word, 1), 'less +'));
  }
  return specs;
}

/** vim -c CMD, +CMD, --cmd CMD run editor commands (which include `:!shell`); -S and -u source scripts. */
/** An editor command: `:!CMD` (also `:silent !CMD`) runs CMD with a shell; others may do anything. */
function editorCommand(program: string, via: string, command: Word): NestedSpec {
  const bang = /^[:\s]*(?:sil(?:ent)?!?\s*)?!/.exec(leadingText(command));
  if (bang) return shellSpec(sliceWord(command, bang[0].length), `${program} ${via} :!`);
  return codeIn('program-option', program, via, command);
}

function vim(cmd: CommandView): NestedSpec[] {
  const specs: NestedSpec[] = [];
  const words = cmd.argv;
  if (cmd.program === 'rvim' || cmd.program === 'rview') return [];
  let exMode = cmd.program === 'ex';
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (is(word, '--')) break;
    const lead = leadingText(word);
    if (lead === '' && !word.static)
      return [unresolved(`${cmd.program}: ${word.text} may be an option`, word)];
    const next = words[i + 1];
    if (is(word, '-c', '--cmd') && next) {
      specs.push(editorCommand(cmd.program, word.value, next));
      i++;
    } else if (is(word, '-S', '-u', '-s') && next) {
      const kind = word.value === '-s' ? 'program-option' : 'script-file';
      if (!is(next, 'NONE', 'NORC', 'DEFAULTS')) specs.push(codeIn(kind, cmd.program, word.value, next));
      i++;
    } else if (lead.startsWith('+') && !/^\+(\d*|\/.*)$/.test(word.value)) {
      specs.push(editorCommand(cmd.program, '+', sliceWord(word, 1)));
    } else if (word.static && /^-[a-zA-Z]*[eE]/.test(word.value) && !word.value.startsWith('--')) {
      exMode = true;
    }
  }
  if (exMode) specs.push(codeSpec('stdin', cmd.program, 'ex mode', words[0]!));
  return specs;
}

function emacs(cmd: CommandView): NestedSpec[] {
  const specs: NestedSpec[] = [];
  const words = cmd.argv;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (lead === '' && !word.static) return [unresolved(`emacs: ${word.text} may be an option`, word)];
    const attached = /^--(eval|load|funcall|script)=/.exec(lead);
    const name = attached ? `--${attached[1]}` : word.value;
    const value = attached ? sliceWord(word, attached[0].length) : words[i + 1];
    if (!value) continue;
    if (['--eval', '-eval'].includes(name)) specs.push(codeIn('interpreter-code', 'emacs', '--eval', value));
    else if (['-l', '--load', '-load', '--script', '-script', '-x'].includes(name)) {
      specs.push(codeIn('script-file', 'emacs', name, value));
    } else if (['-f', '--funcall', '-funcall'].includes(name)) {
      specs.push(codeIn('program-option', 'emacs', name, value));
    } else continue;
    if (!attached) i++;
  }
  return specs;
}

const MAN = grammar({
  flags: 'dDlwWfkKauctiIZ7',
  values: 'CeELmMPprRsS',
  optional: 'THX',
  long:
    'config-file=/C extension=/e encoding=/E locale=/L systems=/m manpath=/M pager=/P preprocessor=/p ' +
    'prompt=/r recode=/R sections=/S html?/H gxditview?/X troff-device?/T regex wildcard names-only ' +
    'no-subpages warnings? no-hyphenation nh no-justification nj local-file/l where/w path/w ' +
    'where-cat/W catman/c help version',
  abbreviate: true,
});

function man(cmd: CommandView): NestedSpec[] {
  const parsed = scan(cmd, MAN);
  if (failed(parsed)) return [parsed];
  return [
    ...optionsNamed(parsed, 'P').map((option) => shellSpec(option.value!, 'man -P')),
    ...optionsNamed(parsed, 'H')
      .filter((option) => option.value)
      .map((option) => shellSpec(option.value!, 'man -H')),
    ...optionsNamed(parsed, 'C').map((option) => codeIn('environment', 'man', '-C', option.value!)),
  ];
}

/** zip -TT COMMAND / --unzip-command COMMAND tests the archive with COMMAND. */
function zip(cmd: CommandView): NestedSpec[] {
  const words = cmd.argv;
  const specs: NestedSpec[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (is(word, '--')) break;
    const lead = leadingText(word);
    if (lead === '' && !word.static) return [unresolved(`zip: ${word.text} may be an option`, word)];
    if (!singleField(word) && lead.startsWith('-'))
      return [unresolved(`zip: ${word.text} is an option only known at run time`, word)];
    const match = /^(-TT|--unzip-command)(=?)/.exec(lead);
    if (!match) continue;
    const rest = word.value.slice(match[0].length);
    if (rest !== '' || match[2] === '=') specs.push(shellSpec(sliceWord(word, match[0].length), 'zip -TT'));
    else if (words[i + 1]) specs.push(shellSpec(words[++i]!, 'zip -TT'));
  }
  return specs;
}

/** Options naming a helper program: sort --compress-program, install --strip-program. */
function helperProgram(option: string): Handler {
  return (cmd) =>
    cmd.argv.flatMap((word, index) => {
      const lead = leadingText(word);
      if (lead.startsWith(`${option}=`))
        return [shellSpec(sliceWord(word, option.length + 1), `${cmd.program} ${option}`)];
      const next = cmd.argv[index + 1];
      if (is(word, option) && next) return [shellSpec(next, `${cmd.program} ${option}`)];
      return [];
    });
}

export const PROGRAM_OPTIONS: Record<string, Handler> = {
  less,
  vim,
  vi: vim,
  nvim: vim,
  view: vim,
  ex: vim,
  vimdiff: vim,
  gvim: vim,
  rvim: vim,
  rview: vim,
  emacs,
  man,
  zip,
  sort: helperProgram('--compress-program'),
  install: helperProgram('--strip-program'),
};
