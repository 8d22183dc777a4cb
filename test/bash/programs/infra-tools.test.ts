import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { ANSIBLE_PROGRAMS } from '../../../src/bash/programs/ansible.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
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

describe('packer: nothing is read-only', () => {
  // Packer before 1.11 starts the packer-plugin-* programs of the working folder before any command.
  test.each([
    'packer version',
    'packer --version',
    'packer -help',
    'packer fmt -check .',
    'packer fmt -write=false template.pkr.hcl',
    'packer validate -syntax-only template.json',
    'packer inspect template.json',
    'packer plugins installed',
  ])('%s', (line) => {
    const verdict = check(line);
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain('packer-plugin-* programs of the working folder');
  });

  test('its grammar reads Go flags', () => {
    expect(check('packer build -var-file vars.json -force template.json').reason).toContain(
      'packer-plugin-*',
    );
    expect(check('packer build -forc template.json').reason).toContain('unknown option');
  });
});
