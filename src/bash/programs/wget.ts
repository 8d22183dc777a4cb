import type { CommandView, EffectsResult, FileEffect, Word } from '../types.js';
import { CREDENTIAL_HEADER, READ_METHODS, READ_URL } from './curl.js';
import { downloadedName, NONE, option, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue, operandWords, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { is, syntheticWord } from './words.js';

/**
 * wget's options, as `wget --help` lists them (1.21): getopt_long reads a unique prefix of a long option, wget
 * reads `--no-NAME` for each flag, and `-nv`, `-nc`, `-nd`, `-nH`, `-np` are `-n` with a letter.
 */
const WGET = grammar({
  flags: 'VhbdqvFcNS46xErkKmpHL',
  values: 'eoaiBtOTwQPUlARDIXn',
  long:
    'version/V help/h background/b execute=/e output-file=/o append-output=/a debug/d quiet/q verbose/v ' +
    'no-verbose report-speed= input-file=/i force-html/F base=/B config= no-config rejected-log= tries=/t ' +
    'retry-connrefused retry-on-http-error= output-document=/O no-clobber no-netrc continue/c start-pos= ' +
    'progress= show-progress timestamping/N no-if-modified-since no-use-server-timestamps ' +
    'server-response/S spider timeout=/T dns-timeout= connect-timeout= read-timeout= wait=/w waitretry= ' +
    'random-wait no-proxy quota=/Q bind-address= limit-rate= no-dns-cache restrict-file-names= ignore-case ' +
    'inet4-only/4 inet6-only/6 prefer-family= user= password= ask-password use-askpass= no-iri ' +
    'local-encoding= remote-encoding= unlink xattr no-directories force-directories/x no-host-directories ' +
    'protocol-directories directory-prefix=/P cut-dirs= http-user= http-password= no-cache default-page= ' +
    'adjust-extension/E ignore-length header= compression= max-redirect= proxy-user= proxy-password= ' +
    'referer= save-headers user-agent=/U no-http-keep-alive no-cookies load-cookies= save-cookies= ' +
    'keep-session-cookies post-data= post-file= method= body-data= body-file= content-disposition ' +
    'content-on-error auth-no-challenge secure-protocol= https-only no-check-certificate certificate= ' +
    'certificate-type= private-key= private-key-type= ca-certificate= ca-directory= crl-file= pinnedpubkey= ' +
    'ciphers= no-hsts hsts-file= ftp-user= ftp-password= no-remove-listing no-glob no-passive-ftp ' +
    'preserve-permissions retr-symlinks ftps-implicit ftps-resume-ssl ftps-clear-data-connection ' +
    'ftps-fallback-to-ftp warc-file= warc-header= warc-max-size= warc-cdx warc-dedup= no-warc-compression ' +
    'no-warc-digests no-warc-keep-log warc-tempdir= recursive/r level=/l delete-after convert-links/k ' +
    'convert-file-only backups= backup-converted/K mirror/m page-requisites/p strict-comments accept=/A ' +
    'reject=/R accept-regex= reject-regex= regex-type= domains=/D exclude-domains= follow-ftp follow-tags= ' +
    'ignore-tags= span-hosts/H relative/L include-directories=/I trust-server-names exclude-directories=/X ' +
    'no-parent',
  negatable: true,
});

/**
 * Options whose files the effects below name, or that touch none: any other (a config file, a WARC file, a
 * certificate, a log of rejected URLs, an askpass program) leaves the effects unknown.
 */
const NAMED = new Set(
  (
    'O o a i P t T w l A R D I X Q U B n e --post-file --body-file --post-data --load-cookies --save-cookies ' +
    '--header --user --password --method --body-data r m p c N q v --no-verbose S --no-check-certificate ' +
    '--spider k K E x --content-disposition --trust-server-names h V 4 6 --max-redirect --dns-timeout ' +
    '--connect-timeout --read-timeout --no-netrc --https-only --no-cookies --no-cache --retry-connrefused ' +
    '--waitretry --random-wait --limit-rate --no-dns-cache --ignore-length --no-http-keep-alive ' +
    '--show-progress --progress --referer --compression --prefer-family --no-iri --save-headers ' +
    '--secure-protocol --ciphers --retry-on-http-error --no-config'
  ).split(' '),
);

/** wget -O FILE writes FILE; without it the file name comes from the URL. */
function effects(cmd: CommandView): EffectsResult {
  const parsed = parseOptions(cmd.argv, 1, WGET, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'h', 'V')) return NONE;
  const found: FileEffect[] = [];
  const document = lastValue(parsed, 'O');
  if (document && !is(document, '-')) found.push(option('write', document));
  for (const given of optionsNamed(parsed, 'o', 'a', '--save-cookies'))
    found.push(option('write', given.value!));
  for (const given of optionsNamed(parsed, 'i', '--post-file', '--body-file', '--load-cookies')) {
    found.push(option('read', given.value!));
  }
  const spider = has(parsed, '--spider');
  if (!document && !spider) found.push(...names(cmd, parsed));
  const known =
    parsed.unknown.length === 0 &&
    parsed.suspects.length === 0 &&
    parsed.options.every((given) => NAMED.has(given.name)) &&
    (document !== undefined || spider) &&
    !has(parsed, 'r', 'm', 'p', 'e', 'P', 'k', 'x');
  return { effects: found, known };
}

/**
 * Without -O, wget names each file after its URL, in the -P folder; recursion, -x and server-chosen names write
 * files only known at run time below that folder.
 */
function names(cmd: CommandView, parsed: Parsed): FileEffect[] {
  const folder = lastValue(parsed, 'P');
  if (has(parsed, 'r', 'm', 'p', 'x', 'i', '--content-disposition', '--trust-server-names')) {
    return [option('write', folder ?? syntheticWord('.', cmd.argv[0]!.span))];
  }
  return operandWords(cmd.argv, parsed).map((url) =>
    option('write', downloadedName(url, folder, 'index.html')),
  );
}

/**
 * A plain read of the web, as for curl: --spider or -O (to stdout, or to a file decided by its path), GET, HEAD
 * or OPTIONS of http, https or ftp URLs, with no body, credential, proxy setting, config or certificate file.
 * wget reads ~/.wgetrc (unless --no-config) and the user's ~/.netrc for the hosts it names: the user's own setup,
 * as a cloud CLI reads its profile.
 */
const SERVICE_READ =
  'O --spider q v --no-verbose n S c o a T --timeout t --dns-timeout --connect-timeout --read-timeout w ' +
  '--waitretry --random-wait --retry-connrefused --retry-on-http-error U --referer --header 4 6 ' +
  '--prefer-family --max-redirect --no-cache --no-cookies --https-only --secure-protocol --ciphers ' +
  '--compression --limit-rate --no-dns-cache --ignore-length --no-http-keep-alive --show-progress --progress ' +
  '--no-iri --no-netrc --no-config --save-headers --method';

const WHY: Record<string, string> = {
  '--post-data': 'sends a request body',
  '--post-file': 'sends a file',
  '--body-data': 'sends a request body',
  '--body-file': 'sends a file',
  '--user': 'sends credentials',
  '--password': 'sends credentials',
  '--http-user': 'sends credentials',
  '--http-password': 'sends credentials',
  '--load-cookies': 'sends cookies',
  '--no-check-certificate': 'skips the check of whom it talks to',
  e: 'runs a wgetrc command',
  '--config': 'reads options from a file',
  '--use-askpass': 'runs a program',
  i: 'reads the URLs from a file',
  r: 'downloads a tree of files',
  m: 'downloads a tree of files',
  b: 'goes on in the background, writing wget-log',
};

function serviceReadProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (!has(parsed, 'O', '--spider')) return 'wget without -O or --spider writes files named by the server';
  for (const given of parsed.options) {
    const value = given.value;
    if (!value) continue;
    if (!value.static) return `wget ${words[given.index]!.text} has a value only known at run time`;
    if (given.name === 'n' && !['v', 'c'].includes(value.value))
      return `wget -n${value.value} is not read-only`;
    if (given.name === '--method' && !READ_METHODS.has(value.value)) {
      return `wget --method ${value.value} may change the resource`;
    }
    if (given.name === '--header' && CREDENTIAL_HEADER.test(value.value.split(':')[0]!)) {
      return `wget --header ${value.value.split(':')[0]} sends a credential`;
    }
  }
  if (parsed.operands.length === 0) return 'wget without a URL';
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!word.static || !READ_URL.test(word.value))
      return `wget ${word.text} is not an http, https or ftp URL`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'wget',
  grammar: WGET,
  serviceRead: readOnly(SERVICE_READ, 'inert', { check: serviceReadProblem, why: WHY }),
};

/** wget downloads URLs: the files it writes and reads, and the plain web reads the read-services profile allows. */
export const WGET_MODULE: ProgramModule = {
  names: ['wget'],
  spec,
  effects,
};
