import { describe, expect, it } from 'vitest';
import { useSandboxClassifier } from './helpers.js';

describe('reasons', () => {
  const sandbox = useSandboxClassifier();
  const reason = async (command: string) => (await sandbox.bash(command)).reason;

  it('say which word keeps a command of the read-only table from being allowed', async () => {
    expect(await reason('sed -i s/a/b/ notes.txt')).toBe(
      'no rule allows sed -i s/a/b/ notes.txt (not a read-only default: sed -i can write or run programs)',
    );
    expect(await reason('grep -R TODO .')).toMatch(/reads ⟨the files the links below \. lead to⟩/);
    expect(await reason('git push origin main')).toMatch(/git push is not a known read-only subcommand/);
  });

  it('name a package script once', async () => {
    expect(await reason('npm test')).toBe('no rule allows running npm test (script-file run by npm)');
  });

  it('say nothing of the table for programs that are not in it', async () => {
    expect(await reason('touch notes.txt')).toBe('no rule allows touch notes.txt');
  });
});
