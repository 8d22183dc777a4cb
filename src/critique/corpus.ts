import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SimpleCommand } from '../bash/index.js';
import { analyzeBash } from '../bash/index.js';
import { type CommandViews, viewsOf } from '../policy/index.js';

export const CORPUS_FILE = fileURLToPath(new URL('../../defaults/dangerous-commands.json', import.meta.url));
/** The calls `automode diff` classifies by default: everyday and dangerous agent calls. */
export const DIFF_CORPUS_FILE = fileURLToPath(new URL('../../defaults/diff-corpus.jsonl', import.meta.url));

export interface CorpusEntry {
  command: string;
  category: string;
}

export interface Corpus {
  dangerous: CorpusEntry[];
  benign: CorpusEntry[];
}

let corpus: Corpus | undefined;

/** The shipped labelled corpus: dangerous commands with their category, and everyday benign ones. */
export function loadCorpus(): Corpus {
  corpus ??= JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) as Corpus;
  return corpus;
}

let commands: string[] | undefined;

/** Every shell command of both shipped corpora, once each. */
export function shippedCommands(): string[] {
  if (!commands) {
    const { dangerous, benign } = loadCorpus();
    const diff = readFileSync(DIFF_CORPUS_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { tool?: string; command?: string })
      .flatMap((call) => (call.tool === 'Bash' && typeof call.command === 'string' ? [call.command] : []));
    commands = [...new Set([...dangerous, ...benign].map((e) => e.command).concat(diff))];
  }
  return commands;
}

/** The command a corpus line starts with, as the classifier sees it (the first command of the syntax). */
export interface CorpusCommand extends CorpusEntry {
  views?: CommandViews;
}

const analysed = new WeakMap<readonly CorpusEntry[], Map<string, Promise<CorpusCommand[]>>>();

/** Each entry's first command, analysed once per list and home folder. */
export function analyseCorpus(entries: readonly CorpusEntry[], home: string): Promise<CorpusCommand[]> {
  let byHome = analysed.get(entries);
  if (!byHome) {
    byHome = new Map();
    analysed.set(entries, byHome);
  }
  let result = byHome.get(home);
  if (!result) {
    result = analyse(entries, home);
    byHome.set(home, result);
  }
  return result;
}

async function analyse(entries: readonly CorpusEntry[], home: string): Promise<CorpusCommand[]> {
  const out: CorpusCommand[] = [];
  for (const entry of entries) {
    const analysis = await analyzeBash(entry.command);
    const first = analysis.commands
      .filter((c: SimpleCommand) => !c.nested && c.argv.length > 0)
      .sort((a, b) => a.span.start - b.span.start)[0];
    out.push(first ? { ...entry, views: viewsOf(first, home) } : { ...entry });
  }
  return out;
}
