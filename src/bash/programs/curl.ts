import type { CommandView, FileEffect, Word } from '../types.js';
import {
  downloadedName,
  type EffectHandler,
  listedIn,
  NONE,
  option,
  UNKNOWN,
  underFolder,
} from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue, operandWords, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { is, leadingText, runtimeWord, sliceWord } from './words.js';

/**
 * curl's options, as `curl --help all` lists them (7.88). curl reads a unique prefix of a long option as the
 * option, and `--no-NAME` turns a flag off.
 */
const CURL = grammar({
  flags: 'aqfGgIh0ik46jlLMn:NZ#pJORSs231BvV',
  values: 'EKCbcdDFPHmoxUQreXYytzTuAw',
  long:
    'abstract-unix-socket= alt-svc= anyauth append/a aws-sigv4= basic cacert= capath= cert=/E cert-status ' +
    'cert-type= ciphers= compressed compressed-ssh config=/K connect-timeout= connect-to= continue-at=/C ' +
    'cookie=/b cookie-jar=/c create-dirs create-file-mode= crlf crlfile= curves= data=/d data-ascii= ' +
    'data-binary= data-raw= data-urlencode= delegation= digest disable/q disable-eprt disable-epsv ' +
    'disallow-username-in-url dns-interface= dns-ipv4-addr= dns-ipv6-addr= dns-servers= doh-cert-status ' +
    'doh-insecure doh-url= dump-header=/D egd-file= engine= etag-compare= etag-save= expect100-timeout= ' +
    'fail/f fail-early fail-with-body false-start form=/F form-escape form-string= ftp-account= ' +
    'ftp-alternative-to-user= ftp-create-dirs ftp-method= ftp-pasv ftp-port=/P ftp-pret ftp-skip-pasv-ip ' +
    'ftp-ssl-ccc ftp-ssl-ccc-mode= ftp-ssl-control get/G globoff/g happy-eyeballs-timeout-ms= ' +
    'haproxy-protocol head/I header=/H help/h hostpubmd5= hostpubsha256= hsts= http0.9 http1.0/0 http1.1 ' +
    'http2 http2-prior-knowledge http3 http3-only ignore-content-length include/i insecure/k interface= ' +
    'ipv4/4 ipv6/6 json= junk-session-cookies/j keepalive-time= key= key-type= krb= libcurl= limit-rate= ' +
    'list-only/l local-port= location/L location-trusted login-options= mail-auth= mail-from= mail-rcpt= ' +
    'mail-rcpt-allowfails manual/M max-filesize= max-redirs= max-time=/m metalink negotiate netrc/n ' +
    'netrc-file= netrc-optional next/: no-alpn no-buffer/N no-clobber no-keepalive no-npn no-progress-meter ' +
    'no-sessionid noproxy= ntlm ntlm-wb oauth2-bearer= output=/o output-dir= parallel/Z parallel-immediate ' +
    'parallel-max= pass= path-as-is pinnedpubkey= post301 post302 post303 preproxy= progress-bar/# proto= ' +
    'proto-default= proto-redir= proxy=/x proxy-anyauth proxy-basic proxy-cacert= proxy-capath= proxy-cert= ' +
    'proxy-cert-type= proxy-ciphers= proxy-crlfile= proxy-digest proxy-header= proxy-insecure proxy-key= ' +
    'proxy-key-type= proxy-negotiate proxy-ntlm proxy-pass= proxy-pinnedpubkey= proxy-service-name= ' +
    'proxy-ssl-allow-beast proxy-ssl-auto-client-cert proxy-tls13-ciphers= proxy-tlsauthtype= ' +
    'proxy-tlspassword= proxy-tlsuser= proxy-tlsv1 proxy-user=/U proxy1.0= proxytunnel/p pubkey= quote=/Q ' +
    'random-file= range=/r rate= raw referer=/e remote-header-name/J remote-name/O remote-name-all ' +
    'remote-time/R remove-on-error request=/X request-target= resolve= retry= retry-all-errors ' +
    'retry-connrefused retry-delay= retry-max-time= sasl-authzid= sasl-ir service-name= show-error/S ' +
    'silent/s socks4= socks4a= socks5= socks5-basic socks5-gssapi socks5-gssapi-nec socks5-gssapi-service= ' +
    'socks5-hostname= speed-limit=/Y speed-time=/y ssl ssl-allow-beast ssl-auto-client-cert ssl-no-revoke ' +
    'ssl-reqd ssl-revoke-best-effort sslv2/2 sslv3/3 stderr= styled-output suppress-connect-headers ' +
    'tcp-fastopen tcp-nodelay telnet-option=/t tftp-blksize= tftp-no-options time-cond=/z tls-max= ' +
    'tls13-ciphers= tlsauthtype= tlspassword= tlsuser= tlsv1/1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 tr-encoding ' +
    'trace= trace-ascii= trace-time unix-socket= upload-file=/T url= url-query= use-ascii/B user=/u ' +
    'user-agent=/A verbose/v version/V write-out=/w xattr',
  negatable: true,
});

/** The file a curl data or form value names: `@FILE`, or `name=@FILE` / `name=<FILE` for forms. */
function dataFile(found: { name: string; value?: Word }): Word | undefined {
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

/** Options naming a file curl writes; with --output-dir, a relative -o path is under that folder. */
const WRITES = [
  'o',
  'D',
  'c',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--etag-save',
  '--libcurl',
  '--hsts',
  '--alt-svc',
];
const READS = ['T', 'K', '--cacert', '--key', 'E', '--netrc-file', '--etag-compare'];
const DATA = ['d', '--data-binary', '--data-ascii', '--data-urlencode', '--json', 'F'];

/**
 * Options that read or reach local files, sockets or code the effects below do not name (a header or format
 * read from `@FILE`, proxy certificates, a crypto engine, a Unix socket, ~/.netrc): with one, the effects are
 * not known.
 */
const UNNAMED =
  'O --remote-name-all K n --netrc-optional H --proxy-header w --url-query --capath --crlfile --proxy-cacert ' +
  '--proxy-capath --proxy-cert --proxy-crlfile --proxy-key --pinnedpubkey --proxy-pinnedpubkey --pubkey ' +
  '--random-file --egd-file --engine --unix-socket --abstract-unix-socket --metalink';

/** The value of -H, -w or --url-query reads a file only when it starts with `@`. */
const AT_FILE = new Set(['H', '--proxy-header', 'w', '--url-query']);

/** curl -O writes each URL's file name in the working folder (or --output-dir); -J lets the server name it. */
function remoteNames(cmd: CommandView, parsed: Parsed): FileEffect[] {
  if (!has(parsed, 'O', '--remote-name-all')) return [];
  const folder = lastValue(parsed, '--output-dir');
  const urls = operandWords(cmd.argv, parsed).concat(
    optionsNamed(parsed, '--url').map((found) => found.value!),
  );
  if (has(parsed, 'J') || (!has(parsed, 'g') && urls.some((url) => /[[{]/.test(url.value)))) {
    return [option('write', runtimeWord('the name the server gives', cmd.argv[0]!.span))];
  }
  return urls.map((url) => option('write', downloadedName(url, folder, undefined)));
}

function effects(cmd: CommandView): { effects: FileEffect[]; known: boolean } {
  const parsed = parseOptions(cmd.argv, 1, CURL, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'V', 'h', 'M')) return NONE;
  const found: FileEffect[] = remoteNames(cmd, parsed);
  const unnamed = new Set(UNNAMED.split(' '));
  let known = parsed.unknown.length === 0 && parsed.suspects.length === 0;
  const folder = lastValue(parsed, '--output-dir');
  // Without -g, `{a,b}` and `[1-9]` in a URL make several transfers, and `#1` in -o names each one's file.
  if (!has(parsed, 'g') && optionsNamed(parsed, 'o').some((given) => /#\d/.test(given.value!.value))) {
    known = false;
  }
  for (const given of parsed.options) {
    const value = given.value;
    if (
      unnamed.has(given.name) &&
      !(AT_FILE.has(given.name) && value && !leadingText(value).startsWith('@'))
    ) {
      known = false;
    }
    if (AT_FILE.has(given.name) && value && !value.static && leadingText(value) === '') known = false;
    if (!value) continue;
    // `-o /dev/null` discards the body; /dev/stdout and /dev/stderr are the standard streams.
    if (WRITES.includes(given.name) && !is(value, '-', '/dev/null', '/dev/stdout', '/dev/stderr')) {
      found.push(option('write', given.name === 'o' && folder ? underFolder(folder, value) : value));
    }
    if (READS.includes(given.name) && !is(value, '-', '.')) found.push(option('read', value));
    // A config file may name files to upload and to write.
    if (given.name === 'K') found.push(listedIn('read', value), listedIn('write', value));
    if (given.name === 'b' && !leadingText(value).includes('=')) {
      found.push(option('read', value));
      if (!value.static) known = false;
    }
    if (DATA.includes(given.name)) {
      const file = dataFile(given);
      if (file) found.push(option('read', file));
      else if (!value.static) known = false;
    }
  }
  return { effects: found, known };
}

/**
 * A plain read of the web: GET, HEAD, OPTIONS or TRACE of http, https or ftp URLs, with no body, upload, credential,
 * proxy, FTP command but those that only read (FTP_READS) or local socket; the files it writes (-o, -D, --trace, the cookie jar) are declared and
 * decided by their paths. Options that only shape the transfer or its output are listed; every other one is not.
 * curl reads ~/.curlrc first unless -q is given: that is the user's own setting for every curl they run, as a
 * cloud CLI reads its profile.
 */
const SERVICE_READ =
  'q s S f --fail-with-body --fail-early v i I # --no-progress-meter L --max-redirs G X H A e w o D c ' +
  '--trace --trace-ascii --trace-time --stderr --etag-save --etag-compare --libcurl --create-dirs ' +
  '--output-dir --no-clobber R --xattr --remove-on-error r C z m --connect-timeout --retry --retry-delay ' +
  '--retry-max-time --retry-all-errors --retry-connrefused --limit-rate --max-filesize Y y ' +
  '--expect100-timeout --happy-eyeballs-timeout-ms --keepalive-time --rate g N --compressed 0 --http1.1 ' +
  '--http2 --http2-prior-knowledge --http3 --http3-only --http0.9 4 6 --raw --tr-encoding ' +
  '--ignore-content-length --path-as-is --no-keepalive --tcp-nodelay --tcp-fastopen --styled-output Z ' +
  '--parallel-max --parallel-immediate --ssl --ssl-reqd 1 --tlsv1.0 --tlsv1.1 --tlsv1.2 --tlsv1.3 ' +
  '--tls-max --ciphers --tls13-ciphers --curves --cert-status --false-start --no-alpn --no-npn ' +
  '--no-sessionid --disable-epsv --disable-eprt --ftp-pasv --ftp-skip-pasv-ip --ftp-method l B ' +
  '--cacert --resolve --interface --dns-servers --dns-interface --dns-ipv4-addr --dns-ipv6-addr ' +
  '--local-port --url --url-query --noproxy Q';

const WHY: Record<string, string> = {
  d: 'sends a request body',
  F: 'sends a form',
  T: 'uploads a file',
  u: 'sends credentials',
  n: 'sends the credentials of ~/.netrc',
  '--netrc-file': 'sends the credentials of a netrc file',
  '--netrc-optional': 'sends the credentials of ~/.netrc',
  '--oauth2-bearer': 'sends a token',
  E: 'sends a client certificate',
  '--key': 'reads a private key',
  b: 'sends cookies',
  K: 'reads options from a file',
  x: 'goes through a proxy',
  k: 'skips the check of whom it talks to',
  '--location-trusted': 'sends credentials to the hosts it is redirected to',
  '--unix-socket': 'talks to a local socket',
  '--engine': 'loads a crypto engine',
  ':': 'starts another transfer with other options',
};

/** HTTP's safe methods, which only read (curl sends the word as written: `get` is not GET). */
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Header names that carry a credential or a session. */
export const CREDENTIAL_HEADER = /auth|token|key|secret|cookie|session|passw|credential|signature|csrf/i;

/** URLs curl reads over http, https or ftp, written out (a URL without a scheme may be dict, ldap, smtp...). */
export const READ_URL = /^(https?|ftp):\/\/[^\s@]*$/i;

/**
 * The FTP commands (RFC 959, 3659, 2389, 2428) that only report or set how this session reads, as `-Q` sends
 * them (a leading `-` after the transfer, `+` after changing folder, `*` ignoring a failure): each with the
 * operands it takes. `MDTM` with a time and a path sets the time on some servers, so it takes one path only;
 * `SITE`, `OPTS` and every command that stores, renames, deletes or makes a folder are not listed.
 */
const FTP_READS =
  /^[-+]?\*?(PWD|XPWD|NOOP|SYST|FEAT|PASV|EPSV|CDUP|XCUP|(LIST|NLST|STAT|HELP|MLSD|MLST)( [^\s]+)?|(CWD|XCWD|SIZE|MDTM) [^\s]+|TYPE [AIE]|TYPE L 8|MODE [SBC]|STRU [FRP])$/i;

function serviceReadProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const given of parsed.options) {
    const value = given.value;
    if (!value) continue;
    if (!value.static) return `curl ${words[given.index]!.text} has a value only known at run time`;
    if (given.name === 'X' && !READ_METHODS.has(value.value))
      return `curl -X ${value.value} may change the resource`;
    if (given.name === 'H') {
      const header = value.value;
      if (header.startsWith('@')) return 'curl -H @FILE reads headers from a file';
      if (CREDENTIAL_HEADER.test(header.split(':')[0]!))
        return `curl -H ${header.split(':')[0]} sends a credential`;
    }
    if (given.name === 'w' && (value.value.startsWith('@') || /%output\{/i.test(value.value))) {
      return 'curl -w reads or writes a file of its own';
    }
    if (given.name === '--url-query' && value.value.startsWith('@')) {
      return 'curl --url-query @FILE reads a file';
    }
    if (given.name === 'Q' && !FTP_READS.test(value.value))
      return `curl -Q '${value.value}' is not an FTP command that only reads`;
    if (given.name === '--url' && !READ_URL.test(value.value))
      return `curl ${value.value} is not an http, https or ftp URL`;
  }
  if (parsed.operands.length === 0 && !has(parsed, '--url')) return 'curl without a URL';
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!word.static || !READ_URL.test(word.value))
      return `curl ${word.text} is not an http, https or ftp URL`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'curl',
  grammar: CURL,
  serviceRead: readOnly(SERVICE_READ, 'inert', { check: serviceReadProblem, why: WHY }),
};

/** curl transfers URLs: the files it writes and reads, and the plain web reads the read-services profile allows. */
export const CURL_MODULE: ProgramModule = {
  names: ['curl'],
  spec,
  effects: effects as EffectHandler,
};
