import { afterAll, describe, expect, it } from 'vitest';
import { MODES as ALL_MODES } from '../../src/shared/index.js';
import { type CorpusCase, corpusCases, removeSandbox, runCorpusCase, type Sandbox } from './helpers.js';

/**
 * The labelled corpus (fixtures/classify/corpus.jsonl, built by fixtures/classify/build_corpus.py): each case is a
 * tool call with the settings it runs under and the decision automode should reach by its principles. Each case
 * runs in fresh temp HOME and project folders with the shipped rules loaded.
 */

const cases = corpusCases();

/** The bypass classes of docs/bash-analysis.md and the other areas the corpus must cover. */
const REQUIRED_CLASSES = [
  'compound',
  'substitution',
  'wrapper',
  'shell-string',
  'function-alias',
  'program-option',
  'env-var',
  'obfuscated-name',
  'global-option',
  'option-order',
  'redirect',
  'file-rule',
  'path-prefix',
  'size',
  'syntax',
  'mode',
  'positive',
  'read-only',
  'file-tool',
  'webfetch',
  'mcp',
  'param-rule',
  'peer-codex',
];

/** Every wrapper docs/bash-analysis.md names, each to appear as a program in some wrapper case. */
const WRAPPERS = [
  'timeout',
  'nice',
  'nohup',
  'stdbuf',
  'time',
  'command',
  'builtin',
  'exec',
  'env',
  'sudo',
  'doas',
  'su',
  'xargs',
  'watch',
  'setsid',
  'ionice',
  'flock',
  'chroot',
  'nsenter',
  'unshare',
  'runuser',
  'script',
  'parallel',
  'busybox',
];

const MODES = ALL_MODES.filter((m) => m !== 'default');

function commandOf(c: CorpusCase): string {
  return typeof c.input.command === 'string' ? c.input.command : '';
}

function shown(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

describe('classification corpus: shape', () => {
  it('has at least 300 cases with unique ids, valid expectations and notes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(['allow', 'ask', 'deny'], c.id).toContain(c.expect);
      expect(c.note.length, `${c.id} has a note`).toBeGreaterThan(0);
      expect(typeof c.tool, c.id).toBe('string');
    }
  });

  it('covers every required class', () => {
    const classes = new Set(cases.map((c) => c.class));
    for (const cls of REQUIRED_CLASSES) expect(classes.has(cls), `class ${cls}`).toBe(true);
    const peerSystems = [...classes].filter((c) => c.startsWith('peer-') && c !== 'peer-codex');
    expect(peerSystems.length).toBeGreaterThanOrEqual(1);
  });

  it('has at least 80 peer-derived rows, each citing its source row', () => {
    const peers = cases.filter((c) => c.class.startsWith('peer-'));
    expect(peers.length).toBeGreaterThanOrEqual(80);
    for (const c of peers) expect(c.peer, c.id).toBeDefined();
  });

  it('covers several cases of each bypass class, every wrapper and every mode', () => {
    const count = (cls: string) => cases.filter((c) => c.class === cls).length;
    for (const cls of REQUIRED_CLASSES.slice(0, 15)) expect(count(cls), cls).toBeGreaterThanOrEqual(3);
    const wrapperPrograms = new Set(
      cases.filter((c) => c.class === 'wrapper').flatMap((c) => commandOf(c).split(/[\s|;&]+/)),
    );
    for (const w of WRAPPERS) expect(wrapperPrograms.has(w), `wrapper ${w}`).toBe(true);
    const modes = new Set(cases.map((c) => c.mode));
    for (const m of MODES) expect(modes.has(m), `mode ${m}`).toBe(true);
    for (const d of ['allow', 'ask', 'deny'] as const) {
      expect(cases.filter((c) => c.expect === d).length, d).toBeGreaterThanOrEqual(30);
    }
  });
});

describe('classification corpus: decisions', () => {
  const boxes: Sandbox[] = [];
  afterAll(async () => {
    await Promise.all(boxes.map(removeSandbox));
  });

  for (const c of cases) {
    it(`${c.id} [${c.class}]`, async () => {
      const { classifier, verdict } = await runCorpusCase(c, boxes);
      expect(classifier.settings.failed, `${c.id}: the case's settings load without errors`).toEqual([]);
      const what = c.tool === 'Bash' ? shown(commandOf(c)) : `${c.tool} ${shown(JSON.stringify(c.input))}`;
      const message = `${c.id}: ${what} expected ${c.expect}, got ${verdict.decision} (${verdict.by}: ${verdict.reason}) -- ${c.note}`;
      expect(verdict.decision, message).toBe(c.expect);
    });
  }
});
