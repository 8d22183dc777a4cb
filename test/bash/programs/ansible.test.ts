import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { ansibleProject } from '../../../src/policy/project-files/ansible.js';
import { expectDecisions, useSandboxClassifier } from '../../classifier/helpers.js';
import { shown } from './support.js';

beforeAll(loadBash);

function readOnly(line: string): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true, 'readOnly');
  return { ok: verdict.readOnly, reason: verdict.reason };
}

describe('ansible reads: the command lines', () => {
  test.each([
    ['ansible-doc -l', []],
    ['ansible-doc -t callback -l', []],
    ['ansible-doc ping', []],
    ['ansible-doc -s file', []],
    ['ansible-doc -j ping copy', []],
    ['ansible-doc -t lookup -F', []],
    ['ansible-config list', []],
    ['ansible-config dump --only-changed', []],
    ['ansible-config dump -t all -f json', []],
    ['ansible-config view', []],
    ['ansible-config init --disabled', []],
    ['ansible-galaxy collection list', []],
    ['ansible-galaxy collection list community.general --format json', []],
    ['ansible-galaxy role list', []],
    ['ansible-galaxy role list -p roles', ['read roles']],
    [
      'ansible-galaxy collection list -p ./collections:/opt/collections',
      ['read ./collections', 'read /opt/collections'],
    ],
    ['ansible-inventory --list', ['read ./group_vars', 'read ./host_vars']],
    ['ansible-inventory --graph --vars', ['read ./group_vars', 'read ./host_vars']],
    ['ansible-inventory --host web1 -y', ['read ./group_vars', 'read ./host_vars']],
    ['ansible-inventory -i hosts.ini --list -y', ['read hosts.ini', 'read ./group_vars', 'read ./host_vars']],
    [
      'ansible-inventory -i inventories/prod/hosts.yml -i localhost, --graph web',
      [
        'read inventories/prod/hosts.yml',
        'read ./group_vars',
        'read ./host_vars',
        'read inventories/prod/group_vars',
        'read inventories/prod/host_vars',
      ],
    ],
    ['ansible all --list-hosts', ['read ./group_vars', 'read ./host_vars']],
    [
      'ansible -i inventory web --list-hosts --limit db',
      ['read inventory', 'read ./group_vars', 'read ./host_vars'],
    ],
  ])('%s only reads', (line, effects) => {
    const verdict = readOnly(line);
    expect(verdict.ok, verdict.reason).toBe(true);
    expect(shown(line)).toEqual({ known: true, effects, code: [] });
  });

  test.each([
    'ansible all -m ping',
    'ansible all -a uptime --list-hosts',
    'ansible-inventory --list --playbook-dir .',
    'ansible-inventory --list --ask-vault-pass',
    'ansible-doc --playbook-dir . -l',
    'ansible-doc -r roles -t role -l',
    'ansible-galaxy collection list --token x',
    'ansible-config dump -c other.cfg',
    'ansible-playbook site.yml --list-hosts',
    'ansible-console --list-hosts',
    'ansible-pull --list-hosts -U https://example.invalid/x.git',
  ])('%s is not one', (line) => {
    expect(readOnly(line).ok).toBe(false);
    expect(shown(line).known).toBe(false);
  });
});

test('a galaxy -p only known at run time reads files that cannot be listed', () => {
  expect(shown('ansible-galaxy role list -p "$ROLES"').known).toBe(false);
});

describe('ansible reads: the decision-time check of the project', () => {
  let root: string;
  const words = (line: string) => analyze(line).commands[0]!.argv;
  const check = (line: string, cwd = root, env: NodeJS.ProcessEnv = {}, changed = false) =>
    ansibleProject(line.split(' ')[0]!, words(line), [cwd], '/nonexistent-home', changed, env);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'automode-ansible-'));
    await mkdir(join(root, 'inv/group_vars'), { recursive: true });
    await writeFile(join(root, 'hosts.ini'), '[web]\nweb1 ansible_host=10.0.0.1\n');
    await writeFile(join(root, 'hosts.yml'), 'all:\n  hosts:\n    web1:\n      x: "{{ y }}"\n');
    await writeFile(join(root, 'inv/hosts'), '[db]\ndb1\n');
    // Variables files are read, never parsed as inventory sources: the word plugin there is data.
    await writeFile(join(root, 'inv/group_vars/all.yml'), 'plugin: constructed\n');
    await writeFile(join(root, 'script.py'), 'print("{}")\n');
    await chmod(join(root, 'script.py'), 0o755);
    await writeFile(join(root, 'shebang.txt'), '#!/bin/sh\necho {}\n');
    await writeFile(join(root, 'gen.yml'), 'plugin: generator\nlayers: {}\n');
    await writeFile(join(root, 'escaped.yaml'), '"\\x70lugin": generator\n');
    await writeFile(join(root, 'wide.yml'), Buffer.from('\ufeffplugin: generator\n', 'utf16le'));
    await mkdir(join(root, 'scripted/sub'), { recursive: true });
    await writeFile(join(root, 'scripted/hosts'), '[a]\nb\n');
    await writeFile(join(root, 'scripted/sub/zz'), '#!/bin/sh\n');
    await chmod(join(root, 'scripted/sub/zz'), 0o700);
    await mkdir(join(root, 'configured'));
    await writeFile(join(root, 'configured/ansible.cfg'), '[defaults]\nlibrary = ./library\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test.each([
    'ansible-doc -l',
    'ansible-config dump --only-changed',
    'ansible-inventory --list',
    'ansible-inventory -i hosts.ini --list',
    'ansible-inventory -i hosts.yml --graph',
    'ansible-inventory -i inv --list',
    'ansible-inventory -i web1,web2, --list',
    'ansible -i hosts.ini all --list-hosts',
  ])('%s: nothing of the project is loaded', (line) => {
    expect(check(line)).toBeUndefined();
  });

  test.each([
    ['ansible-inventory -i script.py --list', 'script.py is executable'],
    ['ansible-inventory -i shebang.txt --list', 'shebang.txt is a script'],
    ['ansible-inventory -i gen.yml --list', 'gen.yml may be a plugin configuration'],
    ['ansible-inventory -i escaped.yaml --list', 'escaped.yaml may be a plugin configuration'],
    ['ansible-inventory -i wide.yml --list', 'wide.yml may be a plugin configuration'],
    ['ansible-inventory -i scripted --list', 'scripted/sub/zz is executable'],
    ['ansible -i hosts.ini -i script.py all --list-hosts', 'script.py is executable'],
    ['ansible-inventory -i missing.ini --list', 'missing.ini cannot be read'],
  ])('%s asks: %s', (line, why) => {
    expect(check(line)).toContain(why);
  });

  it('an ansible.cfg in the working folder asks for every read', () => {
    for (const line of ['ansible-doc -l', 'ansible-config list', 'ansible-inventory --list'])
      expect(check(line, join(root, 'configured'))).toContain('ansible.cfg may name plugins');
  });

  it('an ANSIBLE_ variable in the environment asks', () => {
    expect(check('ansible-doc -l', root, { ANSIBLE_LIBRARY: './library' })).toContain(
      'ANSIBLE_LIBRARY is set',
    );
  });

  it('a working folder only known at run time, or another command writing first, asks', () => {
    expect(
      ansibleProject('ansible-doc', words('ansible-doc -l'), undefined, '/nonexistent-home', false, {}),
    ).toContain('only known at run time');
    expect(check('ansible-inventory -i hosts.ini --list', root, {}, true)).toContain('another command');
  });

  it('a command that is not one of the reads is not looked at', () => {
    expect(check('ansible-playbook site.yml --syntax-check', join(root, 'configured'))).toBeUndefined();
  });
});

describe('ansible reads in a project', () => {
  const plain = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, 'group_vars'), { recursive: true });
    await writeFile(join(box.project, 'hosts.ini'), '[web]\nweb1\n');
    await writeFile(join(box.project, 'group_vars/all.yml'), 'ntp: pool.ntp.org\n');
    await writeFile(join(box.project, 'site.yml'), '- hosts: all\n  tasks: []\n');
  });
  it('a read of a plain project is one of the read-only defaults', async () => {
    const verdict = await plain.bash('ansible-inventory -i hosts.ini --list');
    expect(verdict.parts.find((p) => p.command !== undefined)?.readOnly).toBe(true);
  });
  expectDecisions(
    plain,
    [
      'ansible-inventory --list',
      'ansible-inventory -i hosts.ini --graph --vars',
      'ansible-doc -l',
      'ansible-doc -t callback -l',
      'ansible-config dump --only-changed',
      'ansible -i hosts.ini all --list-hosts',
      'ansible-galaxy collection list',
      'ansible-inventory -i hosts.ini --list | jq .web',
    ],
    [
      'ansible-playbook -i hosts.ini site.yml --syntax-check',
      'ANSIBLE_CONFIG=./x.cfg ansible-doc -l',
      'chmod +x hosts.ini && ansible-inventory -i hosts.ini --list',
      "printf '[defaults]\\nlibrary=./l\\n' > ansible.cfg; ansible-doc -l",
      'ansible-inventory -i hosts.ini --list --output out.json',
      'ansible -i hosts.ini all -m ping',
    ],
  );

  const configured = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'ansible.cfg'), '[defaults]\nfilter_plugins = ./filter_plugins\n');
  });
  it('an ansible.cfg in the project keeps the reads asked', async () => {
    for (const command of ['ansible-doc -t filter -l', 'ansible-config list', 'ansible-inventory --list']) {
      const verdict = await configured.bash(command);
      expect(verdict.decision, verdict.reason).toBe('ask');
      expect(verdict.reason).toContain('ansible.cfg may name plugins');
      // Not one of the read-only defaults either: plan mode, and the effect oracle, do not take it for a read.
      expect(verdict.parts.find((p) => p.command !== undefined)?.readOnly).toBe(false);
    }
  });

  const scripted = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'inventory.py'), '#!/usr/bin/env python3\nprint("{}")\n');
    await chmod(join(box.project, 'inventory.py'), 0o755);
  });
  it('an executable inventory keeps the reads of it asked', async () => {
    const verdict = await scripted.bash('ansible-inventory -i inventory.py --list');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('inventory.py is executable');
  });
});
