import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string, kind: 'readOnly' | 'serviceRead') {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true, kind);
}

describe('curl reads the web only through the read-services profile', () => {
  test.each([
    'curl https://api.github.com/repos/o/r',
    'curl -sSL https://registry.npmjs.org/vitest',
    'curl -fsS --max-time 10 http://localhost:3000/health',
    'curl -I https://example.org',
    'curl --head -L --max-redirs 3 https://example.org',
    'curl -X GET https://example.org/items',
    'curl --request=OPTIONS https://example.org',
    'curl -s -o /dev/null -w "%{http_code}\\n" https://example.org',
    'curl -o page.html https://example.org/',
    'curl --output-dir out -o page.html https://example.org/',
    'curl -D headers.txt --trace-ascii trace.log https://example.org',
    'curl -H "Accept: application/json" -A probe/1.0 -e https://example.org https://example.org/api',
    'curl --compressed --http2 -4 --retry 3 --connect-timeout 5 https://example.org',
    'curl -r 0-99 -z "1 Jan 2024" https://example.org/big.bin',
    'curl -l ftp://ftp.example.org/pub/',
    'curl -q -v --cacert ca.pem https://example.org',
    'curl --url https://example.org',
    'curl -Z https://example.org/a https://example.org/b',
    'curl --resolve example.org:443:127.0.0.1 https://example.org',
    'curl -X TRACE https://example.org',
    'curl --noproxy "*" https://example.org',
    'curl --url-query q=1 https://example.org/search',
    "curl -Q 'PWD' -Q 'TYPE I' ftp://ftp.example.org/pub/",
    "curl -Q 'CWD /pub' -Q '-STAT' ftp://ftp.example.org/",
    "curl -Q '*SIZE a.txt' -Q '+MDTM a.txt' -Q 'LIST' ftp://ftp.example.org/",
    "curl --quote 'NLST pub' ftp://ftp.example.org/",
  ])('%s reads its service', (line) => {
    expect(check(line, 'serviceRead')).toMatchObject({ readOnly: true });
    expect(check(line, 'readOnly').readOnly).toBe(false);
  });

  test.each([
    ['curl -d a=1 https://example.org', 'request body'],
    ['curl --data-raw x https://example.org', 'read-only'],
    ['curl --json {} https://example.org', 'read-only'],
    ['curl -F f=@a.txt https://example.org', 'form'],
    ['curl -T a.txt ftp://example.org/', 'uploads'],
    ['curl -X POST https://example.org', 'POST'],
    ['curl -X DELETE https://example.org/x', 'DELETE'],
    ['curl -X get https://example.org', 'get'],
    ['curl -XPUT https://example.org', 'PUT'],
    ['curl -u me:pw https://example.org', 'credentials'],
    ['curl -n https://example.org', 'netrc'],
    ['curl --netrc-optional https://example.org', 'netrc'],
    ['curl --oauth2-bearer t https://example.org', 'token'],
    ['curl --negotiate https://example.org', 'read-only'],
    ['curl -E client.pem https://example.org', 'certificate'],
    ['curl -b cookies.txt https://example.org', 'cookies'],
    ['curl -b a=1 https://example.org', 'cookies'],
    ['curl -K more.cfg https://example.org', 'options from a file'],
    ['curl -x http://proxy:3128 https://example.org', 'proxy'],
    ['curl --socks5 127.0.0.1:1080 https://example.org', 'read-only'],
    ['curl --url-query @q.txt https://example.org', 'reads a file'],
    ['curl -k https://example.org', 'check'],
    ['curl --location-trusted https://example.org', 'redirected'],
    ['curl -Q "DELE a.txt" ftp://example.org/', 'FTP'],
    ['curl -Q "-RNFR a.txt" -Q "-RNTO b.txt" ftp://example.org/', 'FTP'],
    ['curl -Q "MDTM 20240101000000 a.txt" ftp://example.org/', 'FTP'],
    ['curl -Q "SITE CHMOD 777 a.txt" ftp://example.org/', 'FTP'],
    ['curl -Q "MKD x" ftp://example.org/', 'FTP'],
    ['curl -Q "STOR x" ftp://example.org/', 'FTP'],
    ['curl -Q "PWD; DELE a" ftp://example.org/', 'FTP'],
    ['curl -Q "CWD" ftp://example.org/', 'FTP'],
    ['curl -Q "$CMD" ftp://example.org/', 'run time'],
    ['curl --unix-socket /var/run/docker.sock http://localhost/containers/json', 'socket'],
    ['curl -H "Authorization: Bearer x" https://example.org', 'credential'],
    ['curl -H "X-Api-Key: x" https://example.org', 'credential'],
    ['curl -H "Cookie: s=1" https://example.org', 'credential'],
    ['curl -H @headers.txt https://example.org', 'file'],
    ['curl -w @format.txt https://example.org', 'file'],
    ['curl -w "%output{x}" https://example.org', 'file'],
    ['curl file:///etc/passwd', 'URL'],
    ['curl dict://example.org/d:x', 'URL'],
    ['curl gopher://example.org/', 'URL'],
    ['curl scp://example.org/etc/passwd', 'URL'],
    ['curl example.org', 'URL'],
    ['curl ftp.example.org', 'URL'],
    ['curl "https://$HOST/"', 'URL'],
    ['curl -H "X-Id: $TOKEN" https://example.org', 'run time'],
    ['curl https://example.org --next -d x https://example.org', 'another transfer'],
    ['curl -O https://example.org/a.zip', 'read-only'],
    ['curl --engine x https://example.org', 'crypto engine'],
    ['curl --proto-redir +file https://example.org', 'read-only'],
    ['curl', 'without a URL'],
  ])('%s does not (%s)', (line, why) => {
    const verdict = check(line, 'serviceRead');
    expect(verdict.readOnly).toBe(false);
    expect(verdict.reason).toContain(why);
  });

  test('a unique prefix names the option, as curl reads it', () => {
    expect(check('curl --sil --max-redi 3 https://example.org', 'serviceRead').readOnly).toBe(true);
    expect(check('curl --requ GET https://example.org', 'serviceRead').readOnly).toBe(false);
    expect(check('curl --dat x https://example.org', 'serviceRead').readOnly).toBe(false);
  });
});

describe('curl effects', () => {
  test('files it writes and reads are declared', () => {
    expect(shown('curl -o a.html -D h.txt --cacert ca.pem https://example.org')).toMatchObject({
      known: true,
      effects: ['write a.html', 'write h.txt', 'read ca.pem'],
    });
    expect(shown('curl --output-dir out -o a.html https://example.org').effects).toEqual([
      'write out/a.html',
    ]);
    expect(shown('curl -d @body.json https://example.org').effects).toEqual(['read body.json']);
  });

  test('options reaching files it does not name leave the effects unknown', () => {
    for (const line of [
      'curl -H @h.txt https://example.org',
      'curl -n https://example.org',
      'curl --proxy-cacert p.pem https://example.org',
      'curl --unix-socket /run/x.sock http://x/',
      'curl --engine e https://example.org',
      'curl -K c https://example.org',
      'curl -o "page_#1.html" "https://example.org/[1-3]"',
    ]) {
      expect(shown(line).known, line).toBe(false);
    }
    expect(shown('curl -H "Accept: */*" -w "%{http_code}" https://example.org').known).toBe(true);
  });

  test('--help, --version and --manual print and exit', () => {
    for (const line of ['curl --help', 'curl -V', 'curl --manual', 'curl -M']) {
      expect(shown(line)).toMatchObject({ known: true, effects: [] });
    }
  });
});

describe('wget reads the web only through the read-services profile', () => {
  test.each([
    'wget --spider https://example.org',
    'wget -q --spider -T 10 --tries=2 https://example.org https://example.net',
    'wget -O - https://example.org',
    'wget -qO- https://example.org/a.json',
    'wget -nv -O page.html --header "Accept: text/html" -U probe/1 https://example.org',
    'wget --spider -S --max-redirect=2 --no-config ftp://ftp.example.org/pub/',
  ])('%s reads its service', (line) => {
    expect(check(line, 'serviceRead')).toMatchObject({ readOnly: true });
    expect(check(line, 'readOnly').readOnly).toBe(false);
  });

  test.each([
    ['wget https://example.org/a.tar.gz', 'without -O'],
    ['wget -r --spider https://example.org', 'tree of files'],
    ['wget -O - --post-data a=1 https://example.org', 'request body'],
    ['wget -O - --method=DELETE https://example.org', 'DELETE'],
    ['wget -O - --user me --password pw https://example.org', 'credentials'],
    ['wget -O - --header "Authorization: Bearer t" https://example.org', 'credential'],
    ['wget -O - --no-check-certificate https://example.org', 'check'],
    ['wget -O - -e robots=off https://example.org', 'wgetrc'],
    ['wget -O - --config my.rc https://example.org', 'from a file'],
    ['wget -O - -i urls.txt', 'file'],
    ['wget -O - file:///etc/passwd', 'URL'],
    ['wget -O - example.org', 'URL'],
    ['wget -O - --use-askpass=/tmp/x https://example.org', 'program'],
    ['wget --spider -b https://example.org', 'background'],
    ['wget --spider --load-cookies c.txt https://example.org', 'cookies'],
  ])('%s does not (%s)', (line, why) => {
    const verdict = check(line, 'serviceRead');
    expect(verdict.readOnly).toBe(false);
    expect(verdict.reason).toContain(why);
  });

  test('the files it writes are declared; options with files of their own leave the effects unknown', () => {
    expect(shown('wget -q -O page.html https://example.org')).toMatchObject({
      known: true,
      effects: ['write page.html'],
    });
    expect(shown('wget --spider -T 5 https://example.org')).toMatchObject({ known: true, effects: [] });
    expect(shown('wget -O - --warc-file=x https://example.org').known).toBe(false);
    expect(shown('wget -O - --ca-certificate=c.pem https://example.org').known).toBe(false);
  });
});
