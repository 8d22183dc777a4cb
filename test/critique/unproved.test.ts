import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createColors } from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { critiqueCommandWith } from '../../src/cli/critique.js';
import type { Io } from '../../src/cli/output.js';
import { AUTOMATON_BOUND } from '../../src/critique/automata.js';
import { loadInputs } from '../../src/critique/inputs.js';
import { analyseRule } from '../../src/critique/model.js';
import { overlapFindings } from '../../src/critique/overlap.js';
import { renderText } from '../../src/critique/report-text.js';
import { modelReviewer } from '../../src/critique/review.js';
import type { CritiqueReport } from '../../src/critique/types.js';
import { loadRuleChecks } from '../../src/policy/index.js';
import { type Box, fixturePath, makeBox, removeBox } from './helpers.js';

let box: Box;
beforeAll(async () => {
  box = await makeBox();
  await mkdir(path.join(box.home, '.claude'), { recursive: true });
  await mkdir(path.join(box.cwd, '.claude'), { recursive: true });
});
afterAll(async () => {
  await removeBox(box);
});

/** `automode critique ...` in process, as main() runs it. */
async function cli(argv: string[]) {
  const out: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: () => undefined,
    colors: createColors(false),
    errColors: createColors(false),
  };
  const command = critiqueCommandWith({ env: { HOME: box.home }, reviewer: modelReviewer });
  let code = -1;
  await yargs(['critique', '--cwd', box.cwd, ...argv])
    .strict()
    .exitProcess(false)
    .command(command.command, command.describe, command.builder, async (args) => {
      code = await command.run(args as Record<string, unknown>, io);
    })
    .parseAsync();
  return { code, out: out.join('\n') };
}

describe('a check that stops at the automaton bound says what stays unproved', () => {
  // The two deny rules cover the allow rule together, and neither does alone; the automaton of their union is
  // past the bound, so whether the allow rule is dead cannot be decided.
  it('the union of stricter rules past the bound: a note naming the rules, the bound and the claim, in --json', async () => {
    const file = fixturePath('unproved.yaml');
    const r = await cli(['--no-llm', '--json', file]);
    const report = JSON.parse(r.out) as CritiqueReport;
    const notes = report.findings.filter((f) => f.code === 'unproved');
    expect(notes).toHaveLength(1);
    const note = notes[0]!;
    expect(note).toMatchObject({
      severity: 'note',
      location: { file, line: 3, column: 20, pointer: '/rules/0/input_pattern' },
      data: {
        check: 'dead-rule',
        bound: { automatonStates: AUTOMATON_BOUND },
        rules: ['an a in the last seven (/a.{0,6}$/)', 'an a eight to fifteen from the end (/a.{7,14}$/)'],
        unproved: 'the rule never fires',
      },
    });
    expect(note.message).toBe(
      'whether allow rule an a near the end (/a.{0,14}$/) ever fires stays unproved: deciding whether the 2 stricter rules that match its subjects (an a in the last seven (/a.{0,6}$/), an a eight to fifteen from the end (/a.{7,14}$/)) cover it together needs more than 20,000 automaton states, so it is not reported as dead',
    );
    expect(note.related.map((x) => x.line)).toEqual([7, 11]);
    // Nothing is claimed either way: no dead-rule finding, and the proved overlap is still reported.
    expect(report.findings.filter((f) => f.code === 'dead-rule')).toEqual([]);
    expect(report.findings.some((f) => f.code === 'allow-deny-overlap')).toBe(true);
    expect(report.summary.notes).toBe(report.findings.filter((f) => f.severity === 'note').length);

    const text = renderText(report, createColors(false), box.cwd);
    expect(text).toMatch(
      /3:20\s+note\s+whether allow rule an a near the end .* so it is not reported as dead\s+unproved\n/,
    );
  }, 240_000);

  // The overlap check alone: the whole critique of rules this large spends minutes in its other checks.
  it('a single rule too large to complement: "redundant" stays unproved unless a subject disproves it', async () => {
    await loadRuleChecks();
    const file = fixturePath('unproved-redundant.yaml');
    const inputs = await loadInputs({
      cwd: box.cwd,
      home: box.home,
      env: {},
      managedPath: path.join(box.root, 'managed-settings.json'),
      files: [file],
    });
    const ctx = { cwd: inputs.cwd, home: inputs.home };
    const analysed = [
      ...inputs.subjects.map((r) => analyseRule(r, true, ctx)),
      ...inputs.context.map((r) => analyseRule(r, false, ctx)),
    ];
    const findings = overlapFindings(analysed, { documents: inputs.documents, home: inputs.home });
    const notes = findings.filter((f) => f.code === 'unproved');
    expect(notes.map((f) => [f.location.line, f.data?.check, f.data?.rules])).toEqual([
      [7, 'redundant-rule', ['a seventeen from the end (/a.{16}$/)']],
    ]);
    expect(notes[0]!.message).toBe(
      'whether deny rule ba seventeen from the end (/ba.{16}$/) is redundant stays unproved: deciding whether a seventeen from the end (/a.{16}$/) covers it needs more than 20,000 automaton states, so it is not reported as redundant',
    );
    expect(findings.filter((f) => f.code === 'redundant-rule')).toEqual([]);
  }, 120_000);
});
