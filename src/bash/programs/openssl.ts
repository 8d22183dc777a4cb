import type { FileAccess, FileEffect } from '../types.js';
import { argument, type EffectHandler, NONE, option, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
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
  'inform outform keyform certform CAform passin passout pass md digest cipher subj days newkey pkeyopt sigopt name section set_serial addext nameopt reqopt certopt aes256 engine provider propquery keyalg algorithm'.split(
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
    if (!/^[a-z0-9_]+$/.test(name)) known = false;
  }
  return { effects: out, known };
};

export const OPENSSL_MODULE: ProgramModule = {
  names: ['openssl'],
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
    ],
    operands: ['docs/key'],
  },
};
