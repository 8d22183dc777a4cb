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

describe('ansible-core: help and version only', () => {
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
    // ansible.cfg in the working folder names plugin folders whose Python these load; an inventory may be a script.
    ['ansible all --list-hosts', 'loads the inventory and the plugins'],
    ['ansible-playbook site.yml --syntax-check', 'loads the inventory and the plugins'],
    ['ansible-playbook site.yml --list-tasks', 'loads the inventory and the plugins'],
    ['ansible-inventory --list', 'loads the inventory and the plugins'],
    ['ansible-inventory --graph', 'loads the inventory and the plugins'],
    ['ansible-inventory -i hosts.ini --list', 'inventory, which runs when it is an executable file'],
    ['ansible-doc ping', 'with arguments is not read-only'],
    ['ansible-doc -l', 'loads the inventory and the plugins'],
    ['ansible-config dump', 'only -h/--help or --version'],
    ['ansible-config view', 'only -h/--help or --version'],
    // Check mode still connects to the hosts and runs modules there.
    ['ansible all -m ping --check', 'runs a module on the hosts'],
    ['ansible-playbook site.yml -C', 'still connects to the hosts'],
    ['ansible-playbook site.yml --check --diff', 'still connects to the hosts'],
    // The vault's secrets in clear.
    ['ansible-vault view secrets.yml', 'with arguments is not read-only'],
    ['ansible-vault decrypt secrets.yml', 'with arguments is not read-only'],
    ['ansible-vault view --vault-password-file pw.txt secrets.yml', 'is not a read-only option'],
    ['ansible-galaxy collection list', 'only -h/--help or --version'],
    ['ansible-galaxy role info some.role', 'with arguments is not read-only'],
    // Help must stand alone: argparse reads an abbreviation, and other words first.
    ['ansible --versio', 'unknown option'],
    ['ansible-playbook --version -i x', 'reads an inventory'],
    ['ansible-galaxy --help collection install x', 'with arguments is not read-only'],
    ['ansible-doc -h ping', 'with arguments is not read-only'],
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
