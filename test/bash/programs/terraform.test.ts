import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram, type ReadKind } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string, kind: ReadKind): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec('terraform')!, cmd.argv, true, kind);
  return { ok: verdict.readOnly, reason: verdict.reason };
}

describe('terraform: local reads', () => {
  test.each([
    ['terraform version', []],
    ['terraform version -json', []],
    ['terraform --version', []],
    ['terraform -v', []],
    ['terraform -help', []],
    ['terraform plan -help', []],
    ['terraform apply --help', []],
    ['terraform state rm -h', []],
    ['terraform fmt -check', ['read .']],
    ['terraform fmt -check -diff -recursive modules', ['read modules']],
    ['terraform fmt --check -no-color main.tf', ['read main.tf']],
    ['terraform fmt -write=false', ['read .']],
    ['terraform fmt -write=false -list=false -diff', ['read .']],
    ['terraform modules', []],
    ['terraform modules -json', []],
    ['terraform metadata functions -json', []],
    ['terraform workspace show', []],
  ])('%s', (line, effects) => {
    expect(check(line, 'readOnly')).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
    expect(shown(line)).toEqual({ known: true, effects, code: [] });
  });

  test.each([
    ['terraform', 'without a command'],
    ['terraform fmt', 'rewrites the files'],
    ['terraform fmt -diff', 'rewrites the files'],
    ['terraform fmt -recursive -list=false', 'rewrites the files'],
    // Go's flag package reads a flag's value only attached: `false` here is a folder fmt rewrites.
    ['terraform fmt -write false', 'only as -NAME=true'],
    ['terraform fmt -check -write=maybe', 'only as -NAME=true'],
    ['terraform fmt -check=true', 'unknown option'],
    ['terraform version -json extra', 'with arguments'],
    // They start the provider plugins installed under .terraform.
    ['terraform validate', 'only -help'],
    ['terraform graph', 'only -help'],
    ['terraform show', 'only -help'],
    ['terraform state show aws_instance.web', 'only -help'],
    ['terraform console', 'only -help'],
    ['terraform plan', 'only -help'],
    ['terraform plan -out=plan.tfplan -help', 'unknown option'],
    ['terraform init', 'only -help'],
    ['terraform apply -auto-approve', 'unknown option'],
    ['terraform workspace select dev', 'only -help'],
    ['terraform providers lock', 'only -help'],
    ['terraform -chdir=infra fmt -check', 'is not a read-only option'],
    // Reads of the backend's state: the profile's.
    ['terraform state list', 'only -help'],
    ['terraform output', 'only -help'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'readOnly');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('terraform fmt without -check: the files it formats, a write like any other', () => {
  test.each([
    ['terraform fmt', ['read .', 'write . (.tf .tfvars .tftest.hcl .tfmock.hcl)']],
    [
      'terraform fmt -recursive modules',
      ['read modules', 'write modules (.tf .tfvars .tftest.hcl .tfmock.hcl, recursive)'],
    ],
    [
      'terraform fmt -diff main.tf vars.tfvars',
      [
        'read main.tf',
        'read vars.tfvars',
        'write main.tf (.tf .tfvars .tftest.hcl .tfmock.hcl)',
        'write vars.tfvars (.tf .tfvars .tftest.hcl .tfmock.hcl)',
      ],
    ],
    ['terraform fmt -check', ['read .']],
    ['terraform fmt -write=false', ['read .']],
  ])('%s', (line, effects) => {
    const cmd = analyze(line).commands[0]!;
    expect(cmd.effectsKnown).toBe(true);
    expect(
      cmd.effects.map((e) => {
        const names = e.names?.kind === 'matching' ? e.names : undefined;
        const tail = names ? ` (${names.suffixes.join(' ')}${names.recursive ? ', recursive' : ''})` : '';
        return `${e.access} ${e.path.value}${tail}`;
      }),
    ).toEqual(effects);
  });

  test('an attached value it cannot read leaves the files unknown', () => {
    expect(shown('terraform fmt -write false').known).toBe(false);
  });
});

describe('terraform: reads of the state in the configured backend', () => {
  test.each([
    ['terraform state list', []],
    ['terraform state list module.web aws_instance.web', []],
    ['terraform state list -id=i-0abc', []],
    ['terraform state list -state=prod.tfstate', ['read prod.tfstate']],
    ['terraform output', []],
    ['terraform output -no-color', []],
    ['terraform output -state=prod.tfstate', ['read prod.tfstate']],
    ['terraform workspace list', []],
    ['terraform providers', []],
  ])('%s', (line, effects) => {
    expect(check(line, 'serviceRead')).toEqual({
      ok: true,
      reason: expect.stringContaining('only reads its service'),
    });
    expect(check(line, 'readOnly').ok).toBe(false);
    expect(shown(line)).toEqual({ known: true, effects, code: [] });
  });

  test.each([
    // Secrets: a named output prints a sensitive value; -json and -raw print every value; the whole state.
    'terraform output db_password',
    'terraform output -json',
    'terraform output -raw db_password',
    'terraform state pull',
    'terraform show -json',
    'terraform show',
    'terraform state show aws_db_instance.main',
    // Writes.
    'terraform state rm aws_instance.web',
    'terraform state mv a b',
    'terraform state push local.tfstate',
    'terraform apply',
    'terraform destroy',
    'terraform refresh',
    'terraform workspace new dev',
    'terraform workspace delete dev',
    'terraform force-unlock 1234',
    'terraform providers mirror ./mirror',
    'terraform state list --bogus',
  ])('%s is no read', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(false);
  });
});

describe('terraform: settings on the line', () => {
  test.each([
    'TF_CLI_ARGS_fmt=-write=true terraform fmt -check',
    'TF_CLI_CONFIG_FILE=./cli.tfrc terraform version',
    'TERRAFORM_CONFIG=./cli.tfrc terraform version',
    'TF_DATA_DIR=/tmp/x terraform modules',
    'HELM_PLUGINS=./plugins helm version',
  ])('%s runs what the setting names', (line) => {
    expect(shown(line).code).toEqual([expect.stringMatching(/^environment (TF_|TERRAFORM_|HELM_)/)]);
  });
});
