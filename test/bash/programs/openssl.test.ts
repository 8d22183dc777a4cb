import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  return { readOnly, reason };
}

describe('openssl', () => {
  test.each([
    'openssl version',
    'openssl version -a',
    'openssl version -d -m',
    'openssl help',
    'openssl help x509',
    'openssl list -commands',
    'openssl list -1 -cipher-algorithms',
    'openssl list -digest-commands',
    'openssl list -options x509',
    'openssl x509 -in certs/server.crt -noout -text',
    'openssl x509 -noout -subject -issuer -dates -in server.crt',
    'openssl x509 -noout -fingerprint -sha256 -in server.crt',
    'openssl x509 -in server.der -inform DER -noout -serial -nameopt RFC2253',
    'openssl x509 -in server.crt -noout -checkend 86400',
    'openssl x509 -in server.crt -noout -ext subjectAltName',
    'openssl x509 -in server.crt -noout -checkhost example.org',
    'openssl x509 -in server.crt',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['openssl x509 -in a.crt -out b.crt', /-out is not a read-only option/],
    ['openssl x509 -req -in a.csr -signkey k.pem', /-req is not a read-only option/],
    ['openssl x509 -in a.crt -CA ca.crt -CAkey ca.key -CAcreateserial', /-CA is not a read-only option/],
    ['openssl x509 -in a.crt -noout -text -engine x', /-engine is not a read-only option/],
    ['openssl x509 -noout -text a.crt', /no such argument/],
    ['openssl x509 -in "$CERT" -noout', /run time/],
    ['openssl x509 --noout -in a.crt', /unknown option/],
    ['openssl list -provider legacy -cipher-algorithms', /-provider is not a read-only option/],
    ['openssl list -engines', /-engines is not a read-only option/],
    ['openssl version -x', /not a read-only option/],
    ['openssl help x509 req', /no such argument/],
    ['openssl s_client -connect example.org:443', /not a known read-only subcommand/],
    ['openssl enc -d -in a.enc', /not a known read-only subcommand/],
    ['openssl rsa -in key.pem -text', /not a known read-only subcommand/],
    ['openssl genrsa -out key.pem', /not a known read-only subcommand/],
  ])('%s does not (%s)', (line, why) => {
    const found = verdict(line);
    expect(found.readOnly).toBe(false);
    expect(found.reason).toMatch(why);
  });

  test('x509 reads the file -in names, and no value as a file', () => {
    expect(shown('openssl x509 -in a.crt -noout -checkend 60 -checkhost h.example')).toMatchObject({
      known: true,
      effects: ['read a.crt'],
    });
    expect(shown('openssl list -digest-algorithms -1')).toMatchObject({ known: true, effects: [] });
  });
});
