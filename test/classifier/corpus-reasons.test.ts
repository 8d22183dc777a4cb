import { afterAll, describe, expect, it } from 'vitest';
import type { ClassifiedVerdict } from '../../src/classifier/index.js';
import {
  caseClassifier,
  corpusCases,
  makeSandbox,
  removeSandbox,
  runCorpusCase,
  type Sandbox,
} from './helpers.js';

/**
 * The reasons of the shipped corpus (fixtures/classify/corpus.jsonl) against the analysis: a reason claims no
 * effect the analysis did not find. A part that says its command reads or writes has such an effect or redirect
 * (a word that only may name a file the program opens says so: "may open"); one that says it deletes has a
 * delete effect of that kind; "removes X" is said only of a delete of X itself, never of the entries
 * `find -delete` finds below X.
 */

const cases = corpusCases().filter((c) => c.tool === 'Bash');

/** What is wrong with the reasons of a verdict, one line each. */
function unfounded(verdict: ClassifiedVerdict): string[] {
  const problems: string[] = [];
  for (const part of verdict.parts) {
    const cmd = verdict.analysis?.commands.find((c) => c.id === part.command);
    const verb = /^(reads|writes) /.exec(part.subject)?.[1];
    if (cmd && verb) {
      const writes = verb === 'writes';
      const found =
        cmd.effects.some(
          (e) => (e.access === 'read' || e.access === 'metadata' || e.access === 'execute') !== writes,
        ) || cmd.redirects.some((r) => (writes ? r.writes : r.reads));
      if (!found)
        problems.push(`${part.subject}: the analysis has no ${writes ? 'write' : 'read'} by the command`);
    }
    if (!part.subject.startsWith('deletes ')) {
      if (/: removes /.test(part.reason))
        problems.push(`${part.reason}: removes, but the part deletes nothing`);
      continue;
    }
    const deletes = cmd?.effects.filter((e) => e.access === 'delete') ?? [];
    const below = part.subject.startsWith('deletes entries below ');
    if (!deletes.some((e) => (e.below === true) === below))
      problems.push(`${part.subject}: the analysis has no such delete effect`);
    if (below && /: removes /.test(part.reason))
      problems.push(`${part.reason}: removes the folder, but only entries below it are deleted`);
  }
  return problems;
}

describe('the corpus reasons claim only effects the analysis found', () => {
  const boxes: Sandbox[] = [];
  afterAll(async () => {
    await Promise.all(boxes.map(removeSandbox));
  });

  it('no reason of a Bash case claims a read, write or delete the analysis did not find', async () => {
    const problems: string[] = [];
    for (const c of cases) {
      const { verdict } = await runCorpusCase(c, boxes);
      for (const p of unfounded(verdict)) problems.push(`${c.id}: ${p}`);
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('find -delete deletes the entries it finds below the folder; it is not told as removing the folder', async () => {
    const box = await makeSandbox();
    boxes.push(box);
    const classifier = await caseClassifier(box);
    const v = await classifier.classify({
      tool: 'Bash',
      input: { command: `find . -name '*.tmp' -delete` },
      cwd: box.project,
    });
    expect(v).toMatchObject({ decision: 'ask', by: 'critical-path' });
    expect(v.reason).toBe('deletes entries below .: which is the working folder');
    expect(v.analysis?.commands[0]?.effects.filter((e) => e.access === 'delete')).toMatchObject([
      { below: true },
    ]);
  });
});
