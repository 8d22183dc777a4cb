import type { FileAccess, FileEffect, Word } from '../types.js';
import { argument, type EffectHandler, NONE, option, UNKNOWN } from './effect-helpers.js';
import { type Option, parseOptions } from './options.js';
import { SSH } from './program-options.js';
import { is, leadingText, sliceWord, splitsFreely } from './words.js';

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
export const ssh: EffectHandler = (cmd) => {
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
  const effects: FileEffect[] = [];
  let known = first.unknown.length === 0 && second.unknown.length === 0 && first.suspects.length === 0;
  for (const o of found) {
    if (!o.value) continue;
    if (o.name === 'i' || o.name === 'F') effects.push(option('read', o.value));
    else if (o.name === 'E') effects.push(option('write', o.value));
    else if (o.name === 'S') effects.push(option('create', o.value));
    else if (o.name === 'o' && !sshSetting(o, effects)) known = false;
  }
  return { effects, known };
};

/** ssh-keygen options that take a value; `-y -l -e -B` only print from the key file. */
const KEYGEN_VALUES = 'abCDEfFgIJjKmMNnOPrsSTtVwzZ';
const KEYGEN_PRINTS = 'yleB';

/** ssh-keygen -f FILE: read, and written with FILE.pub unless the command only prints from it. */
export const sshKeygen: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const effects: FileEffect[] = [];
  let file: Word | undefined;
  let prints = false;
  let known = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!word.static || splitsFreely(word)) known = false;
    if (!lead.startsWith('-')) continue;
    for (let j = 1; j < lead.length; j++) {
      const c = lead[j]!;
      if (KEYGEN_PRINTS.includes(c)) prints = true;
      if (!KEYGEN_VALUES.includes(c)) continue;
      const value = j + 1 < lead.length ? sliceWord(word, j + 1) : words[++i];
      if (c === 'f') file = value;
      else if (c === 's' && value) effects.push(option('read', value));
      break;
    }
  }
  if (file) {
    effects.push(option('read', file));
    if (!prints)
      effects.push(option('write', file), option('write', { ...file, value: `${file.value}.pub` }));
  } else if (!prints) known = false;
  return { effects, known };
};

/** openssl options whose value names a file, and what openssl does with it. */
const OPENSSL_FILES: Record<string, FileAccess> = {
  in: 'read',
  out: 'write',
  key: 'read',
  inkey: 'read',
  keyout: 'write',
  signkey: 'read',
  cert: 'read',
  certfile: 'read',
  CA: 'read',
  CAkey: 'read',
  CAfile: 'read',
  CAserial: 'write',
  config: 'read',
  extfile: 'read',
  rand: 'read',
  writerand: 'write',
  kfile: 'read',
  sigfile: 'read',
  signature: 'read',
  prverify: 'read',
  verify: 'read',
  prvrfile: 'read',
  peerkey: 'read',
  paramfile: 'read',
  dhparam: 'read',
  untrusted: 'read',
  trusted: 'read',
  certout: 'write',
  chain: 'read',
};

/** Options that take a value but name no file. */
const OPENSSL_VALUES = new Set(
  'inform outform keyform certform CAform passin passout pass md digest cipher subj days newkey pkeyopt sigopt name section set_serial addext nameopt reqopt certopt aes256 engine provider propquery keyalg algorithm'.split(
    ' ',
  ),
);

/**
 * openssl SUBCOMMAND -in F -out F ...: every option that names a file is reported; `-passin file:F` reads F. An
 * option not known to take no value may swallow the next word, so it makes the effects unknown.
 */
export const openssl: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const sub = words[1];
  if (!sub) return NONE;
  if (!sub.static) return UNKNOWN;
  const effects: FileEffect[] = [];
  let known = true;
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!word.static || splitsFreely(word)) known = false;
    if (!lead.startsWith('-') || is(word, '-')) {
      effects.push(argument('read', word));
      continue;
    }
    const name = lead.replace(/^--?/, '');
    const access = OPENSSL_FILES[name];
    if (access !== undefined || OPENSSL_VALUES.has(name)) {
      const value = words[++i];
      if (!value) break;
      if (access) effects.push(option(access, value));
      else if (/^pass(in|out)?$/.test(name) && leadingText(value).startsWith('file:')) {
        effects.push(option('read', sliceWord(value, 5)));
      } else if (/^pass(in|out)?$/.test(name) && !value.static) known = false;
      continue;
    }
    if (!/^[a-z0-9_]+$/.test(name)) known = false;
  }
  return { effects, known };
};

export const CREDENTIAL_EFFECTS: Record<string, EffectHandler> = {
  ssh,
  'ssh-keygen': sshKeygen,
  openssl,
};
