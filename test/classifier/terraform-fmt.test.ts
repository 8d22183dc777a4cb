import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe } from 'vitest';
import { expectDecisions, useSandboxClassifier } from './helpers.js';

describe('terraform fmt rewrites the files it formats: each decided by its path', () => {
  const box = useSandboxClassifier(
    async (b) => {
      const p = b.project;
      for (const file of [
        'infra/main.tf',
        'infra/vars.tfvars',
        'infra/net/vpc.tf',
        'infra/.terraform/m/x.tf',
      ]) {
        await mkdir(path.dirname(path.join(p, file)), { recursive: true });
        await writeFile(path.join(p, file), 'a = 1\n');
      }
      await mkdir(path.join(p, 'linked'), { recursive: true });
      await writeFile(path.join(p, 'linked/main.tf'), 'a = 1\n');
      await symlink(path.join(b.home, '.bashrc.tf'), path.join(p, 'linked/home.tf'));
      await mkdir(path.join(p, '.claude'), { recursive: true });
      await writeFile(path.join(p, '.claude/hooks.tf'), 'a = 1\n');
    },
    { permissions: { allow: ['Bash(terraform fmt *)'] } },
  );
  expectDecisions(
    box,
    [
      'terraform fmt infra',
      'terraform fmt -recursive infra',
      'terraform fmt infra/main.tf',
      'terraform fmt -check -recursive',
      'cd infra && terraform fmt',
    ],
    ['terraform fmt linked', 'terraform fmt .claude', 'terraform fmt ../elsewhere', 'terraform fmt ~/infra'],
  );
});
