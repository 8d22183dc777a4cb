import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { ANSIBLE_PROGRAMS } from '../../../src/bash/programs/ansible.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { useSandboxClassifier, writeCaseFiles } from '../../classifier/helpers.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true, 'readOnly');
  return { ok: verdict.readOnly, reason: verdict.reason };
}

const ANSIBLE = ANSIBLE_PROGRAMS;

describe('ansible-core: help and version', () => {
  test.each([
    ...ANSIBLE.flatMap((name) => [`${name} --version`, `${name} --help`, `${name} -h`]),
    'ansible-galaxy collection --help',
    'ansible-galaxy role -h',
    'ansible-galaxy collection install --help',
    'ansible-galaxy role list -h',
    'ansible-config dump --help',
    'ansible-vault view --help',
    'ansible-vault decrypt -h',
  ])('%s', (line) => {
    expect(check(line)).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });

  test.each([
    // Templating the plays runs lookups, and the plugin folders beside the playbook are loaded.
    ['ansible-playbook site.yml --syntax-check', 'templates the plays'],
    ['ansible-playbook site.yml --list-tasks', 'templates the plays'],
    ['ansible-playbook site.yml --list-hosts', 'is not a read-only option'],
    // Folders of plugins, settings or variables files named on the command line.
    ['ansible-inventory --playbook-dir . --list', 'names a folder ansible loads plugins'],
    ['ansible-doc -M ./library -l', 'names a folder ansible loads plugins'],
    ['ansible-config list -c ./ansible.cfg', 'names a folder ansible loads plugins'],
    ['ansible-inventory --list -e @vars.yml', 'loads variables'],
    ['ansible-inventory --list --vault-password-file pw.sh', 'runs the password file'],
    ['ansible-inventory --list --output inv.json', 'writes the file named'],
    ['ansible-inventory --list -l @hosts.txt', '--limit @FILE'],
    ['ansible @hosts.txt --list-hosts', 'a host pattern @FILE'],
    ['ansible-inventory -y', 'reads only with --list, --graph, --host'],
    ['ansible-doc -h ping', 'only -h/--help or --version'],
    ['ansible-console --list-hosts', 'is not a read-only option'],
    // Check mode still connects to the hosts and runs modules there.
    ['ansible all -m ping --check', 'runs a module on the hosts'],
    ['ansible all -m ping --list-hosts', 'runs a module on the hosts'],
    ['ansible-playbook site.yml -C', 'still connects to the hosts'],
    ['ansible-playbook site.yml --check --diff', 'still connects to the hosts'],
    // The vault's secrets in clear.
    ['ansible-vault view secrets.yml', 'with arguments is not read-only'],
    ['ansible-vault decrypt secrets.yml', 'with arguments is not read-only'],
    ['ansible-vault view --vault-password-file pw.txt secrets.yml', 'runs the password file'],
    ['ansible-galaxy collection list -s https://galaxy.example', 'is not a read-only option'],
    ['ansible-galaxy collection install ns.col', 'with arguments is not read-only'],
    ['ansible-galaxy role info some.role', 'with arguments is not read-only'],
    // Help must stand alone: argparse reads an abbreviation, and other words first.
    ['ansible --versio', 'unknown option'],
    ['ansible-playbook --version -i x', 'reads an inventory'],
    ['ansible-galaxy --help collection install x', 'with arguments is not read-only'],
    ['ansible-pull -U https://example.invalid/repo.git --help', 'is not a read-only option'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line);
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('cdk: help and version only', () => {
  test.each([
    'cdk --version',
    'cdk --help',
    'cdk -h',
    'cdk deploy --help',
    'cdk ls -h',
    'cdk synthesize --help',
  ])('%s', (line) => {
    expect(check(line)).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });

  test.each([
    // Each loads the plug-ins cdk.json names; list, synth, diff and metadata run the app it names.
    ['cdk version', 'loads the plug-ins cdk.json names'],
    ['cdk context', 'loads the plug-ins cdk.json names'],
    ['cdk doctor', 'loads the plug-ins cdk.json names'],
    ['cdk notices', 'loads the plug-ins cdk.json names'],
    ['cdk docs', 'loads the plug-ins cdk.json names'],
    ['cdk list', 'loads the plug-ins cdk.json names'],
    ['cdk synth', 'loads the plug-ins cdk.json names'],
    ['cdk diff MyStack', 'with arguments is not read-only'],
    ['cdk --version --app "node evil.js"', 'is not a read-only option'],
    ['cdk deploy --help --plugin ./evil.js', 'is not a read-only option'],
    ['cdk deploy --require-approval never', 'unknown option'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line);
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('packer: help, version and a checking fmt', () => {
  test.each([
    'packer version',
    'packer --version',
    'packer -help',
    'packer validate -help',
    'packer fmt -check .',
    'packer fmt -check -diff template.pkr.hcl',
    'packer fmt -write=false template.pkr.hcl',
    'packer fmt --write=0 -diff vars.pkrvars.hcl',
  ])('%s is read-only', (line) => {
    expect(check(line)).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
  });

  test.each([
    // Without -check or -write=false fmt rewrites; a Go bool flag takes its value only when attached.
    ['packer fmt template.pkr.hcl', 'rewrites the files'],
    ['packer fmt -diff .', 'rewrites the files'],
    ['packer fmt -write false', 'rewrites the files'],
    ['packer fmt -write=true .', 'rewrites the files'],
    ['packer fmt -check=false .', 'unknown option'],
    // These start the plugins a template names and evaluate its expressions.
    ['packer validate -syntax-only template.json', 'starts the plugins a template names'],
    ['packer inspect template.json', 'starts the plugins a template names'],
    ['packer console', 'starts the plugins a template names'],
    ['packer plugins installed', 'starts the plugins a template names'],
    ['packer build -var-file vars.json -force template.json', 'starts the plugins a template names'],
    ['packer build -forc template.json', 'unknown option'],
  ])('%s is not read-only: %s', (line, why) => {
    const verdict = check(line);
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });

  test('fmt reads its template; help and version touch nothing', () => {
    expect(shown('packer fmt -check src/build.pkr.hcl')).toEqual({
      known: true,
      effects: ['read src/build.pkr.hcl'],
      code: [],
    });
    expect(shown('packer version')).toEqual({ known: true, effects: [], code: [] });
    expect(shown('packer fmt -check -').known).toBe(false);
  });
});

describe('packer: a packer-plugin-* program in the working folder asks', () => {
  // A plugin in another folder is not started: packer looks in its working folder only.
  const plain = useSandboxClassifier(async (box) => {
    await writeCaseFiles(box, { 'tools/packer-plugin-local': '#!/bin/sh\n' });
  });
  const plugged = useSandboxClassifier(async (box) => {
    await writeCaseFiles(box, { 'packer-plugin-local': '#!/bin/sh\n' });
  });
  test.each(['packer version', 'packer fmt -check .'])('%s', async (line) => {
    expect((await plain.bash(line)).decision).toBe('allow');
    const verdict = await plugged.bash(line);
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toContain('packer-plugin-local');
    expect((await plain.bash(`cd tools && ${line}`)).decision).toBe('ask');
  });
});
