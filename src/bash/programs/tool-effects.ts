import type { CommandView, EffectsResult, FileEffect, Word } from '../types.js';
import {
  argument,
  type EffectHandler,
  listedIn,
  NONE,
  option,
  UNKNOWN,
  underFolder,
} from './effect-helpers.js';
import {
  type Grammar,
  grammar,
  has,
  lastValue,
  operandWords,
  optionsNamed,
  type Parsed,
  parseOptions,
} from './options.js';
import { is, leadingText, runtimeWord, sliceWord, splitsFreely, syntheticWord } from './words.js';
import { wrapperSyntax } from './wrappers.js';

function lenient(cmd: CommandView, g: Grammar, start = 1, permute = true): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, start, g, { permute, unknown: 'flag', dynamic: 'operand' });
  return parsed.ok ? parsed : undefined;
}

function clean(parsed: Parsed): boolean {
  return parsed.unknown.length === 0 && parsed.suspects.length === 0;
}

const CURL = grammar({
  flags: '0123456ABfgGIiJjkLlMnNOpqRsSvVZ#:',
  values: 'AbcCdDeEFHKmoPQrtTuUwxXyYz',
  long:
    'data=/d data-raw= data-binary= data-ascii= data-urlencode= json= form=/F form-string= header=/H ' +
    'output=/o output-dir= upload-file=/T config=/K cookie=/b cookie-jar=/c dump-header=/D trace= ' +
    'trace-ascii= stderr= etag-save= etag-compare= hsts= alt-svc= netrc-file= cacert= capath= cert=/E key= ' +
    'user=/u user-agent=/A referer=/e request=/X url= proxy=/x max-time=/m connect-timeout= retry= ' +
    'retry-delay= retry-max-time= range=/r continue-at=/C write-out=/w time-cond=/z limit-rate= ' +
    'max-filesize= proxy-user=/U resolve= connect-to= interface= dns-servers= oauth2-bearer= cert-type= ' +
    'key-type= pass= ciphers= tls-max= variable= expand-data= expand-url= libcurl= remote-name/O ' +
    'remote-name-all remote-header-name/J silent/s show-error/S fail/f fail-with-body location/L insecure/k ' +
    'compressed verbose/v include/i head/I get/G create-dirs progress-bar/# no-progress-meter http1.1 http2 ' +
    'http3 ipv4/4 ipv6/6 globoff/g no-keepalive no-buffer/N raw tcp-nodelay fail-early no-sessionid ' +
    'location-trusted post301 post302 post303 netrc/n netrc-optional junk-session-cookies/j ssl ssl-reqd ' +
    'tlsv1.2 tlsv1.3 help version/V',
  abbreviate: false,
});

/** The file a curl data or form value names: `@FILE`, or `name=@FILE` / `name=<FILE` for forms. */
function curlDataFile(found: { name: string; value?: Word }): Word | undefined {
  const value = found.value;
  if (!value) return undefined;
  const lead = leadingText(value);
  const at = found.name === 'F' || found.name === '--form' ? lead.search(/=[@<]/) + 1 : lead.indexOf('@');
  if (at < 0 || (found.name !== 'F' && at !== 0 && found.name !== '--data-urlencode')) return undefined;
  if (at === 0 && found.name === 'F') return undefined;
  const file = sliceWord(value, at + 1);
  const end = file.value.indexOf(';');
  const path = end < 0 ? file : { ...file, value: file.value.slice(0, end) };
  return is(path, '-') ? undefined : path;
}

const CURL_WRITES = ['o', 'D', 'c', '--trace', '--trace-ascii', '--stderr', '--etag-save', '--libcurl'];
const CURL_READS = ['T', 'K', '--cacert', '--key', 'E', '--netrc-file', '--etag-compare'];
const CURL_DATA = ['d', '--data-binary', '--data-ascii', '--data-urlencode', '--json', 'F'];

/**
 * The file a download without an output name writes: the URL's last path segment (`fallback` when it has none),
 * in `folder`; a name only known at run time when the URL is.
 */
function downloadedName(url: Word, folder: Word | undefined, fallback: string | undefined): Word {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url.value)?.[1];
  const last = path?.slice(path.lastIndexOf('/') + 1) || fallback;
  const name =
    url.static && last ? syntheticWord(last, url.span) : runtimeWord('the name the server gives', url.span);
  return folder ? underFolder(folder, name) : name;
}

/** curl -O writes each URL's file name in the working folder (or --output-dir); -J lets the server name it. */
function curlRemoteNames(cmd: CommandView, parsed: Parsed): FileEffect[] {
  if (!has(parsed, 'O', '--remote-name-all')) return [];
  const folder = lastValue(parsed, '--output-dir');
  const urls = operandWords(cmd.argv, parsed).concat(
    optionsNamed(parsed, '--url').map((found) => found.value!),
  );
  if (has(parsed, 'J')) return [option('write', runtimeWord('the name the server gives', cmd.argv[0]!.span))];
  return urls.map((url) => option('write', downloadedName(url, folder, undefined)));
}

const curl: EffectHandler = (cmd) => {
  const parsed = lenient(cmd, CURL);
  if (!parsed) return UNKNOWN;
  if (has(parsed, 'V', '--help')) return NONE;
  const effects: FileEffect[] = curlRemoteNames(cmd, parsed);
  let known = clean(parsed) && !has(parsed, 'O', '--remote-name-all', 'K');
  for (const found of parsed.options) {
    const value = found.value;
    if (!value) continue;
    if (CURL_WRITES.includes(found.name) && !is(value, '-')) effects.push(option('write', value));
    if (CURL_READS.includes(found.name) && !is(value, '-', '.')) effects.push(option('read', value));
    // A config file may name files to upload and to write.
    if (found.name === 'K') effects.push(listedIn('read', value), listedIn('write', value));
    if (found.name === '--hsts' || found.name === '--alt-svc') effects.push(option('write', value));
    if (found.name === 'b' && !leadingText(value).includes('=')) {
      effects.push(option('read', value));
      if (!value.static) known = false;
    }
    if (CURL_DATA.includes(found.name)) {
      const file = curlDataFile(found);
      if (file) effects.push(option('read', file));
      else if (!value.static) known = false;
    }
  }
  return { effects, known };
};

const WGET = grammar({
  flags: 'bqvdNSrkKEpmcFxHLhVe46',
  values: 'OoaiPtTwlARDIXQUYBne',
  long:
    'output-document=/O output-file=/o append-output=/a input-file=/i directory-prefix=/P tries=/t ' +
    'timeout=/T wait=/w level=/l accept=/A reject=/R domains=/D include-directories=/I ' +
    'exclude-directories=/X quota=/Q user-agent=/U base=/B execute=/e post-file= body-file= post-data= ' +
    'load-cookies= save-cookies= header= user= password= method= body-data= recursive/r mirror/m ' +
    'page-requisites/p continue/c timestamping/N quiet/q verbose/v no-verbose server-response/S ' +
    'no-check-certificate spider convert-links/k backup-converted/K adjust-extension/E no-parent ' +
    'no-directories no-host-directories force-directories/x content-disposition trust-server-names ' +
    'help/h version/V',
  abbreviate: true,
});

/** wget -O FILE writes FILE; without it the file name comes from the URL. */
const wget: EffectHandler = (cmd) => {
  const parsed = lenient(cmd, WGET);
  if (!parsed) return UNKNOWN;
  if (has(parsed, 'h', 'V')) return NONE;
  const effects: FileEffect[] = [];
  const document = lastValue(parsed, 'O');
  if (document && !is(document, '-')) effects.push(option('write', document));
  for (const found of optionsNamed(parsed, 'o', 'a', '--save-cookies'))
    effects.push(option('write', found.value!));
  for (const found of optionsNamed(parsed, 'i', '--post-file', '--body-file', '--load-cookies')) {
    effects.push(option('read', found.value!));
  }
  const spider = has(parsed, '--spider');
  if (!document && !spider) effects.push(...wgetNames(cmd, parsed));
  const known =
    clean(parsed) && (document !== undefined || spider) && !has(parsed, 'r', 'm', 'p', 'e', 'P', 'k', 'x');
  return { effects, known };
};

/**
 * Without -O, wget names each file after its URL, in the -P folder; recursion, -x and server-chosen names write
 * files only known at run time below that folder.
 */
function wgetNames(cmd: CommandView, parsed: Parsed): FileEffect[] {
  const folder = lastValue(parsed, 'P');
  if (has(parsed, 'r', 'm', 'p', 'x', 'i', '--content-disposition', '--trust-server-names')) {
    return [option('write', folder ?? syntheticWord('.', cmd.argv[0]!.span))];
  }
  return operandWords(cmd.argv, parsed).map((url) =>
    option('write', downloadedName(url, folder, 'index.html')),
  );
}

/** dd if=FILE of=FILE: operands are `name=value`. */
const dd: EffectHandler = (cmd) => {
  const effects: FileEffect[] = [];
  let known = true;
  for (const word of cmd.argv.slice(1)) {
    const lead = leadingText(word);
    if (is(word, '--help', '--version')) return NONE;
    if (!lead.includes('=') || splitsFreely(word)) {
      known = false;
      continue;
    }
    if (lead.startsWith('if=')) effects.push(argument('read', sliceWord(word, 3)));
    if (lead.startsWith('of=')) effects.push(argument('write', sliceWord(word, 3)));
  }
  return { effects, known };
};

/** The files wrappers themselves name: time -o, xargs -a, flock FILE, script FILE, strace -o. */
function ownFiles(
  program: string,
  files: Record<string, 'read' | 'write'>,
  extra?: (parsed: Parsed, cmd: CommandView) => EffectsResult,
): EffectHandler {
  const { grammar: g, permute } = wrapperSyntax(program);
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, g, { unknown: 'flag', dynamic: 'operand', permute });
    if (!parsed.ok) return UNKNOWN;
    const effects = parsed.options.flatMap((found) => {
      const access = files[found.name];
      return access && found.value ? [option(access, found.value)] : [];
    });
    const more = extra?.(parsed, cmd) ?? NONE;
    return { effects: [...effects, ...more.effects], known: parsed.unknown.length === 0 && more.known };
  };
}

export const TOOL_EFFECTS: Record<string, EffectHandler> = {
  curl,
  wget,
  dd,
  time: ownFiles('time', { o: 'write' }),
  xargs: ownFiles('xargs', { a: 'read' }),
  strace: ownFiles('strace', { o: 'write' }),
  flock: ownFiles('flock', {}, (parsed, cmd) => {
    const lock = cmd.argv[parsed.rest];
    return { effects: lock && !/^\d+$/.test(lock.value) ? [argument('create', lock)] : [], known: true };
  }),
  script: ownFiles('script', { B: 'write', I: 'write', O: 'write', T: 'write' }, (parsed, cmd) => {
    const file = parsed.operands[0] === undefined ? undefined : cmd.argv[parsed.operands[0]];
    return file ? { effects: [argument('write', file)], known: true } : UNKNOWN;
  }),
};
