import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { BUILTIN_FILES } from '../../src/rules/settings/builtin.js';
import { answerHookInput } from '../../src/service/answer.js';
import { loadCaseSettings, makeSandbox, removeSandbox, type Sandbox } from '../classifier/helpers.js';

let box: Sandbox;
let decide: Parameters<typeof answerHookInput>[1];

beforeAll(async () => {
  await loadBash();
  box = await makeSandbox();
  await mkdir(path.join(box.project, '.claude'), { recursive: true });
  await writeFile(
    path.join(box.project, '.claude/settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash(npm publish *)'] } }, null, 2),
  );
  const classifier = createClassifier(await loadCaseSettings(box));
  decide = (input) => classifier.classify(input.call);
});
afterAll(() => removeSandbox(box));

/** The permissionDecisionReason automode gives the agent for a command run in the project. */
async function reason(command: string): Promise<string> {
  const raw = JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    cwd: box.project,
    permission_mode: 'default',
  });
  return JSON.parse(await answerHookInput(raw, decide)).hookSpecificOutput.permissionDecisionReason;
}

describe('the reason given to the agent names the rule once, and where it is written', () => {
  it('a shipped rule: by its text, once, and `defaults` rather than the installed file', async () => {
    const r = await reason('git push --force origin x');
    expect(r).toMatch(
      /^automode: asked by Bash\(git push --force \*\) \(defaults\): it overwrites x on origin with the local history: commits only the remote has are lost;/,
    );
    expect(r).not.toContain(BUILTIN_FILES.settings);
  });

  it("a project's rule: its file relative to the project, with the line", async () => {
    const r = await reason('npm publish --tag next');
    expect(r).toBe(
      'automode: denied by Bash(npm publish *) (.claude/settings.json:4): it publishes the package to the registry, for everyone',
    );
  });
});

describe('the reason says what the command does to files, as the analysis found it', () => {
  it('an ask by a rule: the deletes and writes of its command', async () => {
    expect(await reason('rm -r build')).toMatch(
      /^automode: asked by Bash\(rm -r \*\) \(defaults\): it deletes build;/,
    );
    expect(await reason('git push --force origin x')).toMatch(
      /\(defaults\): it overwrites x on origin .*; to allow/,
    );
  });

  it('what a git command throws away, not "it writes ."; a change of mode as a change, not a read', async () => {
    expect(await reason('git reset --hard')).toMatch(
      /\(defaults\): it discards uncommitted changes to tracked files below \.;/,
    );
    expect(await reason('git checkout -- .')).toMatch(/\(defaults\): it discards uncommitted changes to \.;/);
    // A stash entry lives in git's refs, not the work tree: the rule's words say what it discards.
    const drop = await reason('git stash drop');
    expect(drop).toMatch(
      /asked by Bash\(git stash drop \*\) \(defaults\): it drops the stash entry stash@\{0\} and the changes it holds;/,
    );
    expect(drop).not.toContain('writes');
    const chmod = await reason('chmod -R 777 /');
    // No narrower rule either: one naming it exactly would still ask (/ is a critical path).
    expect(chmod).toMatch(/\(defaults\): it changes the mode or owner of \/$/);
    expect(chmod).not.toContain('reads /');
  });
});

describe('every rule-decided destructive or mode-changing command names its effect, not just the rule', () => {
  it.each([
    ['git stash clear', 'it deletes every stash entry and the changes they hold'],
    ['git clean -fdx', 'it deletes untracked files and folders below ., ignored ones included'],
    ['git branch -D topic', 'it deletes the branch topic, merged or not'],
    ['git push --force origin main', 'it overwrites main on origin with the local history'],
    ['git push origin :topic', 'it deletes topic on origin'],
    [
      'git checkout -f main',
      'it discards uncommitted changes to tracked files below . while switching to main',
    ],
    ['git rebase main', 'it rewrites the commits of the current branch onto main'],
    ['git filter-branch --all', "it rewrites the repository's history"],
    ['xargs rm -rf < dirs.txt', 'it deletes the paths xargs appends from its input, recursively'],
    ['find . -type d | xargs rm -rf', 'it deletes the paths xargs appends from its input, recursively'],
    ['rm -rf "$DIR"', 'it deletes "$DIR", a path only known at run time, recursively'],
    ['xargs chmod 777 < files.txt', 'it changes the mode of the paths xargs appends from its input'],
    ['mkfs.ext4 /dev/sdz1', 'it makes a new filesystem on /dev/sdz1, erasing everything it holds'],
    ['shutdown -h now', 'it shuts the machine down'],
    ['dd if=/dev/zero of=disk.img', 'it overwrites disk.img block by block'],
    ['terraform destroy', 'it destroys every resource the Terraform state holds'],
    ['docker system prune -a', 'it deletes stopped containers, unused networks and every unused image'],
  ])('%s: %s', async (command, effect) => {
    const r = await reason(command);
    expect(r).toMatch(/^automode: (asked|denied) by .* \((defaults|\.claude\/settings\.json:\d+)\): it /);
    expect(r).toContain(effect);
  });
});

describe('an ask by a shipped rule names the narrower allow rule that would let the command through', () => {
  it('the exact command as a Bash rule, which does override the shipped ask; none for other rules', async () => {
    for (const command of ['git push --force origin x', 'rm -r build', 'git stash drop']) {
      const r = await reason(command);
      const rule = /to allow just this command, add the allow rule (Bash\(.*\))$/.exec(r)?.[1];
      expect(rule, r).toBe(`Bash(${command})`);
      const other = await makeSandbox();
      const allowed = createClassifier(await loadCaseSettings(other, { permissions: { allow: [rule] } }));
      const v = await allowed.classify({ tool: 'Bash', input: { command }, cwd: other.project });
      await removeSandbox(other);
      expect(v.parts[0], command).toMatchObject({ by: 'rule', decision: 'allow', rule: { text: rule } });
    }
    // None for an ask someone wrote (it is not overridden), nor for a deny.
    await writeFile(
      path.join(box.project, '.claude/settings.local.json'),
      JSON.stringify({ permissions: { ask: ['Bash(git tag *)'] } }),
    );
    const classifier = createClassifier(await loadCaseSettings(box));
    const own = await answerHookInput(
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'git tag v1' }, cwd: box.project }),
      (input) => classifier.classify(input.call),
    );
    expect(own).toContain('asked by Bash(git tag *)');
    expect(own).not.toContain('to allow just this command');
    expect(await reason('npm publish')).not.toContain('to allow');
  });

  it('only a rule checked to let the call through: none for a command inside a wrapper or beside a redirection', async () => {
    for (const command of ['xargs rm -rf < dirs.txt', 'find . -type d | xargs rm -rf']) {
      const r = await reason(command);
      expect(r).toMatch(/^automode: asked by /);
      expect(r).not.toContain('to allow just this command');
    }
  });
});
