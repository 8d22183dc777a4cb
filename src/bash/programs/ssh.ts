import type { CommandView, FileAccess, FileEffect, NestedSpec } from '../types.js';
import { type EffectHandler, option, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Option, type Parsed, parseOptions } from './options.js';
import { codeIn, codeSpec, parseFailure, shellSpec, unresolved } from './specs.js';
import { joinWords, leadingText, sliceWord } from './words.js';

export const SSH = grammar({ flags: '46AaCfGgKkMNnqsTtVvXxYy', values: 'BbcDEeFIiJLlmOoPpQRSWw' });

const SSH_COMMAND_KEYS = ['proxycommand', 'localcommand', 'knownhostscommand'];

/**
 * The programs that ssh options run, for ssh, scp and sftp: `-F` reads a configuration, `-S` (scp, sftp) and
 * `-D` (sftp) name a program, `-o Key=Value` / `-o 'Key Value'` settings that are commands run locally.
 */
export function sshOptionSpecs(program: string, parsed: Parsed): NestedSpec[] {
  const specs: NestedSpec[] = [];
  for (const found of parsed.options) {
    const value = found.value;
    if (!value) continue;
    if (found.name === 'F') specs.push(codeIn('environment', program, '-F', value));
    if (found.name === 'S' && program !== 'ssh') specs.push(shellSpec(value, `${program} -S`));
    if (found.name === 'D' && program === 'sftp') specs.push(shellSpec(value, 'sftp -D'));
    if (found.name !== 'o') continue;
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
function nested(cmd: CommandView): NestedSpec[] {
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

/** `-o Key=Value` settings of ssh that name a file, and what ssh does with it. */
const SSH_FILE_SETTINGS: Record<string, FileAccess> = {
  identityfile: 'read',
  certificatefile: 'read',
  userknownhostsfile: 'write',
  globalknownhostsfile: 'read',
  revokedhostkeys: 'read',
  controlpath: 'create',
  identityagent: 'read',
};

function sshSetting(found: Option, effects: FileEffect[]): boolean {
  const value = found.value!;
  const setting = /^\s*([A-Za-z]+)\s*(=\s*|\s+)/.exec(leadingText(value));
  if (!setting) return value.static;
  const access = SSH_FILE_SETTINGS[setting[1]!.toLowerCase()];
  if (access) effects.push(option(access, sliceWord(value, setting[0].length)));
  return true;
}

/** ssh: -i and -F read a key and a configuration, -E writes a log, `-o IdentityFile=` and kin name files. */
const effects: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const first = parseOptions(words, 1, SSH, { dynamic: 'operand', unknown: 'flag' });
  if (!first.ok) return UNKNOWN;
  const destination = first.rest < words.length ? first.rest : undefined;
  const second =
    destination === undefined
      ? first
      : parseOptions(words, destination + 1, SSH, { dynamic: 'operand', unknown: 'flag' });
  if (!second.ok) return UNKNOWN;
  const found = second === first ? first.options : [...first.options, ...second.options];
  const out: FileEffect[] = [];
  let known = first.unknown.length === 0 && second.unknown.length === 0 && first.suspects.length === 0;
  for (const o of found) {
    if (!o.value) continue;
    if (o.name === 'i' || o.name === 'F') out.push(option('read', o.value));
    else if (o.name === 'E') out.push(option('write', o.value));
    else if (o.name === 'S') out.push(option('create', o.value));
    else if (o.name === 'o' && !sshSetting(o, out)) known = false;
  }
  return { effects: out, known };
};

export const SSH_MODULE: ProgramModule = {
  names: ['ssh'],
  effects,
  nested,
  oracle: {
    cases: [
      'ssh -i ~/.ssh/id_rsa host',
      'ssh host -F cfg',
      'ssh -E log host ls',
      'ssh -o IdentityFile=.env host',
      'ssh -o "UserKnownHostsFile /tmp/k" host',
      'ssh -o ControlPath=ctl -N host',
      'ssh -S ctl host',
      'ssh -o ProxyCommand="cat .env" -N host',
      'ssh -oLocalCommand=touch\\ x -o PermitLocalCommand=yes -N host',
      'ssh -F cfg -N host',
      'ssh host ls -la',
    ],
  },
};
