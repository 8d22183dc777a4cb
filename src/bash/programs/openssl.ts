import type { FileAccess, FileEffect, Word } from '../types.js';
import { argument, type EffectHandler, NONE, option, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { is, leadingText, sliceWord, splitsFreely } from './words.js';

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
  'inform outform keyform certform CAform passin passout pass md digest cipher subj days newkey pkeyopt sigopt name section set_serial addext nameopt reqopt certopt aes256 engine provider propquery keyalg algorithm checkend dateopt ext checkhost checkemail checkip select options'.split(
    ' ',
  ),
);

/**
 * openssl SUBCOMMAND -in F -out F ...: every option that names a file is reported; `-passin file:F` reads F. An
 * option not known to take no value may swallow the next word, so it makes the effects unknown.
 */
const effects: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const sub = words[1];
  if (!sub) return NONE;
  if (!sub.static) return UNKNOWN;
  const out: FileEffect[] = [];
  let known = true;
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!word.static || splitsFreely(word)) known = false;
    if (!lead.startsWith('-') || is(word, '-')) {
      out.push(argument('read', word));
      continue;
    }
    const name = lead.replace(/^--?/, '');
    const access = OPENSSL_FILES[name];
    if (access !== undefined || OPENSSL_VALUES.has(name)) {
      const value = words[++i];
      if (!value) break;
      if (access) out.push(option(access, value));
      else if (/^pass(in|out)?$/.test(name) && leadingText(value).startsWith('file:')) {
        out.push(option('read', sliceWord(value, 5)));
      } else if (/^pass(in|out)?$/.test(name) && !value.static) known = false;
      continue;
    }
    if (!/^[a-z0-9_]+(?:-[a-z0-9]+)*$/.test(name)) known = false;
  }
  return { effects: out, known };
};

/**
 * openssl's commands read their options as single words (`-noout`, `-in FILE`), by their exact names: the grammar
 * below takes each as a letter with the rest attached, and the check reads the words themselves.
 */
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const WORDS = grammar({ optional: LETTERS, abbreviate: false });

/** Digests x509 prints a fingerprint with (`-fingerprint -sha256`). */
const DIGESTS = 'md5 sha1 sha224 sha256 sha384 sha512 sha3-256 sha3-512 sm3';

/**
 * What each read-only command takes, from its `-help` (OpenSSL 3.0): flags, and options whose value is the next
 * word. `x509` only prints the certificate it reads (`-in` is decided by its path): never `-out`, a key, a CA, an
 * extension file or `-req`/`-new`, which sign or write. `list` without `-provider`/`-provider-path` (which load
 * code) or `-engines` (which loads the engines it lists).
 */
const COMMANDS: Record<string, { flags: string; values: string }> = {
  x509: {
    flags:
      'help noout nocert text fingerprint alias serial startdate enddate dates subject issuer email hash ' +
      `subject_hash subject_hash_old issuer_hash issuer_hash_old ocspid ocsp_uri purpose pubkey modulus ${DIGESTS}`,
    values: 'in inform nameopt certopt dateopt ext checkend checkhost checkemail checkip',
  },
  version: { flags: 'help a b d e m f o p r v c', values: '' },
  list: {
    flags:
      'help 1 verbose commands standard-commands digest-commands digest-algorithms kdf-algorithms ' +
      'random-instances random-generators mac-algorithms cipher-commands cipher-algorithms encoders decoders ' +
      'key-managers key-exchange-algorithms kem-algorithms signature-algorithms asymcipher-algorithms ' +
      'public-key-algorithms public-key-methods store-loaders providers disabled objects',
    values: 'select options',
  },
  help: { flags: '', values: '' },
};

function commandProblem(command: string): (parsed: Parsed, words: readonly Word[]) => string | undefined {
  const { flags, values } = COMMANDS[command]!;
  const flagSet = new Set(flags.split(' '));
  const valueSet = new Set(values.split(' '));
  return (_parsed, words) => {
    let operands = 0;
    for (let i = 2; i < words.length; i++) {
      const word = words[i]!;
      if (!word.static) return `openssl ${command} ${word.text} is only known at run time`;
      const name = /^-([\w-]+)$/.exec(word.value)?.[1];
      if (name !== undefined && flagSet.has(name)) continue;
      if (name !== undefined && valueSet.has(name) && i + 1 < words.length) {
        i++;
        if (!words[i]!.static) return `openssl ${command} -${name} has a value only known at run time`;
        continue;
      }
      if (name !== undefined || word.value.startsWith('-')) {
        return `openssl ${command} ${word.text} is not a read-only option`;
      }
      operands++;
    }
    // `openssl help x509` names the command whose options it prints; the others take no operands.
    if (operands > (command === 'help' ? 1 : 0)) return `openssl ${command} takes no such argument`;
    return undefined;
  };
}

/**
 * The command is read from the words, not as a subcommand level: openssl has many more (a digest's or a cipher's
 * name is one), whose effects the handler above reads. Without one, openssl reads commands from stdin.
 */
function readOnlyCommand(parsed: Parsed, words: readonly Word[]): string | undefined {
  const command = words[1];
  if (!command) return 'openssl without a command reads its commands from stdin';
  if (!command.static || !Object.hasOwn(COMMANDS, command.value)) {
    return `openssl ${command.text} is not a known read-only subcommand`;
  }
  return commandProblem(command.value)(parsed, words);
}

const spec: ProgramSpec = {
  name: 'openssl',
  grammar: WORDS,
  readOnly: readOnly([...LETTERS].join(' '), 'inert', { check: readOnlyCommand }),
};

export const OPENSSL_MODULE: ProgramModule = {
  names: ['openssl'],
  spec,
  effects,
  oracle: {
    cases: [
      'openssl enc -base64 -in .env -out x',
      'openssl rsa -passin file:.env -in docs/key',
      'openssl dgst -sha256 .env',
      'openssl base64 -in .env',
      'openssl x509 -in docs/key -noout -text',
      'openssl req -config .env -new -key docs/key',
      'openssl sha256 README.md',
      'openssl version -a',
      'openssl list -commands',
      'openssl help x509',
      'openssl x509 -in README.md -noout -subject -dates',
      'openssl x509 -noout -text -in .env',
    ],
    operands: ['docs/key'],
  },
};
