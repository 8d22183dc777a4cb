import type { CommandView, NestedSpec, Word } from '../types.js';
import { type Grammar, grammar, has, optionsNamed, type Parsed, parseOptions } from './options.js';
import { codeIn, codeSpec, type Handler, parseFailure, shellSpec, unresolved } from './specs.js';
import { is, joinWords, leadingText, singleField, sliceWord } from './words.js';

/** Options are read GNU style (anywhere before `--`); a word that may be an option fails the analysis. */
function scan(cmd: CommandView, g: Grammar, start = 1, permute = true): Parsed | NestedSpec {
  const parsed = parseOptions(cmd.argv, start, g, { permute, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return parseFailure(cmd.program, parsed);
  const suspect = parsed.suspects[0];
  if (suspect === undefined) return parsed;
  const word = cmd.argv[suspect]!;
  return unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word);
}

function failed(parsed: Parsed | NestedSpec): parsed is NestedSpec {
  return 'kind' in parsed;
}

const SSH_FLAGS = '46AaCfGgKkMNnqsTtVvXxYy';
export const SSH = grammar({ flags: SSH_FLAGS, values: 'BbcDEeFIiJLlmOoPpQRSWw' });
export const SCP = grammar({ flags: '346ABCpqrRTOv', values: 'cDFiJloPSX' });
const SFTP = grammar({ flags: '246aCfNpqrv', values: 'BbcDFiJloPRsSX' });

const SSH_COMMAND_KEYS = ['proxycommand', 'localcommand', 'knownhostscommand'];

/** `-o Key=Value` / `-o 'Key Value'` settings that are commands run locally. */
function sshOptionSpecs(program: string, parsed: Parsed): NestedSpec[] {
  const specs: NestedSpec[] = [];
  for (const option of parsed.options) {
    const value = option.value;
    if (!value) continue;
    if (option.name === 'F') specs.push(codeIn('environment', program, '-F', value));
    if (option.name === 'S' && program !== 'ssh') specs.push(shellSpec(value, `${program} -S`));
    if (option.name === 'D' && program === 'sftp') specs.push(shellSpec(value, 'sftp -D'));
    if (option.name !== 'o') continue;
    const setting = /^\s*([A-Za-z]+)\s*(=\s*|\s+)/.exec(leadingText(value));
    if (!setting) {
      if (!value.static)
        specs.push(unresolved(`${program} -o ${value.text}: setting only known at run time`, value));
      continue;
    }
    const key = setting[1]!.toLowerCase();
    if (!SSH_COMMAND_KEYS.includes(key)) continue;
    const command = sliceWord(value, setting[0].length);
    if (!(command.static && command.value.toLowerCase() === 'none'))
      specs.push(shellSpec(command, setting[1]!));
  }
  return specs;
}

/** ssh [options] destination [options] [command]: the command runs on the remote host. */
function ssh(cmd: CommandView): NestedSpec[] {
  const words = cmd.argv;
  const first = parseOptions(words, 1, SSH);
  if (!first.ok) return [parseFailure('ssh', first)];
  const destination = words[first.rest];
  const second = destination ? parseOptions(words, first.rest + 1, SSH) : first;
  if (!second.ok) return [parseFailure('ssh', second)];
  const options = {
    ...second,
    options: second === first ? first.options : [...first.options, ...second.options],
  };
  const specs = sshOptionSpecs('ssh', options);
  if (!destination || has(options, 'V', 'G', 'O', 'Q', 'N')) return specs;
  const command = words.slice(second.rest);
  const remote = command.length ? joinWords(command) : destination;
  const via = command.length ? 'ssh remote command' : 'ssh remote shell';
  return [
    ...specs,
    codeSpec(
      'program-option',
      'ssh',
      via,
      remote,
      command.length && remote.static ? remote.value : undefined,
    ),
  ];
}

function sshFamily(program: 'scp' | 'sftp', g: Grammar): Handler {
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, g);
    if (!parsed.ok) return [parseFailure(program, parsed)];
    return sshOptionSpecs(program, parsed);
  };
}

export const RSYNC = grammar({
  flags: 'avzrlptgoDPhHAXEWxSucbnqiRmOJkKLCIy0468s',
  values: 'efBMT',
  long:
    'rsh=/e rsync-path= filter=/f exclude= include= exclude-from= include-from= files-from= temp-dir=/T ' +
    'partial-dir= backup-dir= suffix= chmod= chown= usermap= groupmap= compare-dest= copy-dest= link-dest= ' +
    'log-file= log-file-format= out-format= password-file= port= sockopts= timeout= contimeout= bwlimit= ' +
    'max-size= min-size= max-delete= block-size=/B checksum-choice= compress-choice= compress-level= ' +
    'skip-compress= remote-option=/M iconv= address= info= debug= modify-window= write-batch= ' +
    'only-write-batch= read-batch= protocol= checksum-seed= outbuf= stop-after= stop-at= archive/a ' +
    'verbose/v compress/z recursive/r links/l perms/p times/t group/g owner/o devices specials ' +
    'hard-links/H acls/A xattrs/X executability/E whole-file/W one-file-system/x sparse/S update/u ' +
    'checksum/c backup/b dry-run/n quiet/q itemize-changes/i relative/R prune-empty-dirs/m ' +
    'omit-dir-times/O omit-link-times/J copy-links/L copy-dirlinks/k keep-dirlinks/K cvs-exclude/C ' +
    'ignore-times/I human-readable/h progress partial delete delete-before delete-during delete-delay ' +
    'delete-after delete-excluded remove-source-files ignore-existing existing inplace append ' +
    'append-verify mkpath stats no-motd safe-links copy-unsafe-links size-only numeric-ids fake-super ' +
    'super force ignore-errors list-only help version',
  abbreviate: true,
});

function rsync(cmd: CommandView): NestedSpec[] {
  const parsed = scan(cmd, RSYNC);
  if (failed(parsed)) return [parsed];
  return [
    ...optionsNamed(parsed, 'e').map((option) => shellSpec(option.value!, 'rsync -e')),
    ...optionsNamed(parsed, '--rsync-path').map((option) =>
      codeIn('program-option', 'rsync', '--rsync-path', option.value!),
    ),
  ];
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
  ssh,
  scp: sshFamily('scp', SCP),
  sftp: sshFamily('sftp', SFTP),
  rsync,
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
