import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectDecisions, type Sandbox, useSandboxClassifier } from './helpers.js';

/** A project of ordinary names: src/a.py, src/b.py, docs/guide.md, notes.txt, todo.txt. */
async function ordinary(box: Sandbox): Promise<void> {
  await mkdir(path.join(box.project, 'src'));
  await mkdir(path.join(box.project, 'docs'));
  await writeFile(path.join(box.project, 'src', 'a.py'), '# TODO\n');
  await writeFile(path.join(box.project, 'src', 'b.py'), 'x = 1\n');
  await writeFile(path.join(box.project, 'docs', 'guide.md'), '# guide\n');
  await writeFile(path.join(box.project, 'notes.txt'), 'n\n');
  await writeFile(path.join(box.project, 'todo.txt'), 't\n');
  await mkdir(path.join(box.home, '.ssh'));
  await writeFile(path.join(box.home, '.ssh', 'id_rsa'), 'PRIVATE\n');
}

describe('paths a producer lists below known folders, handed to a consumer that only reads them', () => {
  const sandbox = useSandboxClassifier(ordinary);
  expectDecisions(
    sandbox,
    [
      "find . -name '*.py' | xargs grep TODO",
      "find src -type f -name '*.py' | xargs wc -l",
      'find . -print0 | xargs -0 grep -n TODO',
      'find . -type f -print0 | xargs --null head -n 3',
      "find src -type f | xargs -d '\\n' cat",
      'find . -maxdepth 2 -type f | xargs -n 1 -P 4 md5sum',
      'find . -name "*.md" -o -name "*.txt" | xargs -r ls -la',
      'find docs -type f 2>/dev/null | xargs stat',
      'git ls-files | xargs wc -l',
      "git ls-files '*.py' | xargs grep -l TODO",
      'git ls-files -z | xargs -0 head -1',
      'git ls-files --others --exclude-standard | xargs du -sh',
      'fd -t f | xargs head -5',
      'fd -e py . src | xargs grep -c TODO',
      'fd -0 -t f | xargs -0 sha256sum',
      'ls | xargs -I {} stat {}',
      'ls *.txt | xargs cat',
      'ls -1 docs | xargs -n1 file',
      'find . -type f | xargs -I{} head -n 2 {}',
      'find src -name "*.py" -exec cat {} +',
      'find . -type f -exec grep -l TODO {} \\;',
      'cat $(ls *.txt)',
      'head -10 $(find . -name "*.py")',
      'wc -l $(git ls-files)',
      'grep -n TODO "$(find src -name a.py)"',
      'ls $(pwd)',
      'ls -la "$(pwd)"',
      'ls `pwd`',
      'wc -l `git ls-files`',
      'head -5 "`find src -name a.py`"',
      'du -sh $(pwd)',
      // The tool call's own stdin is the harness's, which carries nothing the agent wrote: no word is handed over.
      'xargs cat',
      'xargs -0 grep -l TODO',
      'xargs -I {} head -5 {}',
      'xargs -n 1 wc -l',
      'xargs -r -P 4 md5sum',
      'xargs git status',
      'xargs -d , wc -l',
    ],
    [
      // A producer whose output is not only paths below known folders.
      'cat list.txt | xargs cat',
      'xargs -a notes.txt cat',
      "find . -printf '%p\\n' | xargs cat",
      'find . -ls | xargs cat',
      // Where the line may feed xargs's stdin, or the command is not only a reader.
      'xargs cat < notes.txt',
      '{ xargs cat; } < notes.txt',
      '(xargs cat) < notes.txt',
      'while read -r x; do xargs cat; done < notes.txt',
      'f() { xargs cat; }; f < notes.txt',
      "bash -c 'xargs cat'",
      'xargs rm',
      'xargs sh -c "cat $0"',
      'xargs -o cat',
      "xargs -I {} sh -c 'cat {}'",
      'xargs -I {} cat ../{}',
      'xargs git push',
      'xargs --arg-file=notes.txt cat',
      'ls -l | xargs cat',
      'ls -a | xargs grep -r x',
      'ls .. | xargs cat',
      'ls ../proj | xargs cat',
      'git ls-files .. | xargs cat',
      "git ls-files ':(top)' | xargs cat",
      'git ls-files -s | xargs cat',
      'fd --format /etc/passwd | xargs cat',
      'fd -l | xargs cat',
      'find . -exec cat {} \\; | xargs cat',
      'find ~ -name id_rsa | xargs cat',
      'find / -name id_rsa | xargs cat',
      'find ../ -name id_rsa -print0 | xargs -0 cat',
      'cat $(cat notes.txt)',
      'cat $(echo ~/.ssh/id_rsa)',
      'cat $(find ~ -name id_rsa)',
      'cat "x$(ls)"',
      // A hand-over that changes what the names are.
      'find . | xargs -0 cat',
      'find . -print0 | xargs cat',
      "find . | xargs -d ',' cat",
      'find . | xargs -I{} cat ../{}',
      'find . | xargs -I{} cat /home/{}',
      'find . | xargs --process-slot-var=LD_LIBRARY_PATH cat',
      'find . | xargs -p cat',
      'find . | xargs cat < notes.txt',
      'find . > out.txt | xargs cat',
      'find . 2>&1 | xargs cat',
      'IFS=/ ; cat $(find .)',
      // find -L is asked by find's own spec (links below the folder lead anywhere).
      'find -L src -type f -exec wc -l {} +',
      'find . -ok cat {} \\;',
      // A consumer that is not a plain reader of its operands, or reads the first name as its pattern.
      'find . | xargs grep',
      'find . | xargs sed -n p',
      'find . | xargs sh -c \'cat "$@"\' sh',
      'find . | xargs rm',
      'find . | xargs rg --pre sh x',
      'find . | xargs -I{} sh -c "cat {}"',
      'find . -exec sh -c "cat {}" \\;',
      'find . | xargs cat > out.txt',
      // A file made on the same line is not there when the analysis walks the tree.
      "touch 'x y'; find . | xargs cat",
      "find . | xargs cat & touch 'x y'",
      "echo hi > 'x y'; find . | xargs cat",
      "mkdir 'x y' && cat $(find .)",
    ],
  );
});

describe('names the hand-over would split, unquote or read as options', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await ordinary(box);
    // `src/x /…/home/secret.txt`: split at the blank, the second half is a file outside the project.
    const split = path.join(box.project, 'src', `x ${box.home}`);
    await mkdir(split, { recursive: true });
    await writeFile(path.join(split, 'secret.txt'), '');
    await writeFile(path.join(box.home, 'secret.txt'), 'S\n');
    await mkdir(path.join(box.project, 'q'));
    await writeFile(path.join(box.project, 'q', "it's"), '');
    await mkdir(path.join(box.project, 'g'));
    await writeFile(path.join(box.project, 'g', 'star*'), '');
    await mkdir(path.join(box.project, 'dash'));
    await writeFile(path.join(box.project, 'dash', '--pre=sh'), '');
  });
  expectDecisions(
    sandbox,
    [
      // NUL-separated and exec hand-overs do not split; find prints every name after its folder.
      'find src -print0 | xargs -0 cat',
      'git ls-files -z | xargs -0 cat',
      'find src -exec cat {} +',
      'find q -exec cat {} +',
      "find q -type f | xargs -d '\\n' cat",
      'find dash | xargs cat',
      'find dash -print0 | xargs -0 rg x',
      'cat "$(find g -type f)"',
      'find docs | xargs cat',
      // fd prints the names below a folder it is given after that folder.
      'fd . dash | xargs cat',
      'fd . dash -0 | xargs -0 rg x',
    ],
    [
      'find src | xargs cat',
      'find . | xargs cat',
      'find src -type f | xargs -I{} cat {}',
      'find q | xargs cat',
      'cat $(find src)',
      'cat $(find g)',
      'ls $(find q)',
      'cd dash && fd | xargs cat',
      'cd dash && fd -0 | xargs -0 rg x',
      'cd dash && ls | xargs rg x',
      'cd dash && git ls-files -z | xargs -0 rg x',
      'cd dash && cat $(ls)',
    ],
  );

  it('says which name would not arrive as one', async () => {
    const verdict = await sandbox.bash('find q | xargs cat');
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toMatch(/"it's" below q would not reach the command as one name/);
  });
});

describe('what the consumer reads through the names, decided as grep -r reads the folder', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await ordinary(box);
    await writeFile(path.join(box.project, 'app.env'), '');
    await mkdir(path.join(box.project, 'config'));
    await writeFile(path.join(box.project, 'config', '.env'), 'KEY=1\n');
    await mkdir(path.join(box.project, 'links'));
    await symlink(path.join(box.home, '.ssh', 'id_rsa'), path.join(box.project, 'links', 'notes.txt'));
    await mkdir(path.join(box.project, 'keys'));
    await writeFile(
      path.join(box.project, 'keys', 'server.pem'),
      '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n',
    );
  });
  expectDecisions(
    sandbox,
    ['find src -type f | xargs cat', 'find docs -print0 | xargs -0 cat', 'find src -exec cat {} +'],
    [
      'find config -type f | xargs cat',
      'find . -name "*.txt" | xargs cat',
      'find links | xargs cat',
      'find links -print0 | xargs -0 head',
      'find links -exec cat {} +',
      'ls links | xargs cat',
      'cat $(find links)',
      'find keys -name "*.pem" | xargs cat',
      'find keys -exec cat {} +',
    ],
  );

  it('names the Read rule, as for grep -r', async () => {
    const verdict = await sandbox.bash('find config | xargs cat');
    expect(verdict.reason).toMatch(/reads config\/\.env, which Read\(\.env\) asks about/);
  });

  it('follows a link below the folder to where it leads', async () => {
    const verdict = await sandbox.bash('find links -exec cat {} +');
    expect(verdict.decision).not.toBe('allow');
    expect(verdict.reason).toMatch(/id_rsa/);
  });
});

describe('words echo and printf print, and the names find -execdir and fd -x/-X/-l hand their command', () => {
  const sandbox = useSandboxClassifier(ordinary);
  expectDecisions(
    sandbox,
    [
      'echo notes.txt | xargs cat',
      "echo 'notes.txt' todo.txt | xargs cat",
      "printf '%s\\n' notes.txt todo.txt | xargs wc -l",
      "printf '%s\\0' notes.txt src/a.py | xargs -0 head -n 2",
      "printf '%s\\n' notes.txt | xargs -d '\\n' cat",
      "printf '%s\\n' notes.txt todo.txt | xargs -L 1 cat",
      "printf '%s\\n' notes.txt todo.txt | xargs -I X grep -n x X",
      'echo src/a.py | xargs -I{} stat {}',
      'echo docs/guide.md | xargs -n 1 md5sum',
      'find . -execdir cat {} \\;',
      'find src -execdir cat {} +',
      "find src -name '*.py' -execdir wc -l {} +",
      'find docs -type f -execdir grep -n guide {} +',
      'fd -x cat',
      'fd py --exec cat',
      'fd --type f --exec wc -l {}',
      'fd -e py -X head -n 1',
      'fd -l guide',
      'fd . src -x md5sum',
      'fdfind -t f -X grep -l TODO',
    ],
    [
      // Words that are not the names bash and xargs would hand over.
      'echo ~/.ssh/id_rsa | xargs cat',
      'echo $HOME/.ssh/id_rsa | xargs cat',
      'echo ../x | xargs cat',
      'echo /etc/passwd | xargs cat',
      'echo -e "notes.txt" | xargs cat',
      "echo 'a b' notes.txt | xargs -d ' ' cat",
      `echo "'notes.txt'" | xargs cat`,
      "printf '%b\\n' notes.txt | xargs cat",
      "printf '%s\\n' '' | xargs cat",
      'echo | xargs cat',
      'echo notes.txt | xargs -E notes.txt cat',
      'echo -- notes.txt | xargs cat',
      'echo -r | xargs cat',
      'echo notes.txt | xargs rm',
      'echo notes.txt | xargs grep',
      'echo notes.txt | xargs -I{} cat ../{}',
      'echo notes.txt | xargs sh -c \'cat "$@"\' sh',
      // find -execdir and fd run the command in another folder, or run more than a reader of the names.
      'find . -execdir rm {} \\;',
      'find . -execdir cat {} other.txt \\;',
      'find . -execdir sh -c "cat {}" \\;',
      'find . -okdir cat {} \\;',
      'fd -x rm',
      'fd -x cat {/}',
      'fd -x cat {//}',
      'fd -x cat {.}',
      'fd -x cat {} /etc/passwd',
      'fd -x sh -c "cat {}"',
      'fd --exec-batch sh -c id',
      'fd -Lx cat',
      'fd . ~ -x cat',
      'fd --strip-cwd-prefix -x cat',
    ],
  );
});

describe('what echo, find -execdir and fd -x hand over, decided as the files they name', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await ordinary(box);
    await mkdir(path.join(box.project, 'config'));
    await writeFile(path.join(box.project, 'config', '.env'), 'KEY=1\n');
    await mkdir(path.join(box.project, 'links'));
    await symlink(path.join(box.home, '.ssh', 'id_rsa'), path.join(box.project, 'links', 'notes.txt'));
  });
  expectDecisions(
    sandbox,
    ['echo notes.txt | xargs cat', 'find src -execdir cat {} +', 'fd . src -x cat'],
    [
      'echo config/.env | xargs cat',
      'echo links/notes.txt | xargs cat',
      'find config -execdir cat {} +',
      'find links -execdir cat {} +',
      'fd -H -x cat',
      'fd . links -x cat',
      'fd . config -H -x cat',
    ],
  );

  it('names the file a printed word reaches', async () => {
    const verdict = await sandbox.bash('echo config/.env | xargs cat');
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toMatch(/config\/\.env \(from echo config\/\.env\)/);
  });
});
