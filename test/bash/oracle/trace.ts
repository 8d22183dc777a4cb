import { TRACE_MARK } from './sandbox.js';

/** One simple command as bash's xtrace printed it. */
export type TraceRecord =
  | { kind: 'argv'; words: string[]; raw: string }
  /** `name=value`, `name+=value`, `name[sub]=value` (prefix assignments are printed as records of their own). */
  | { kind: 'assignment'; name: string; value: string; raw: string }
  /** `name=(...)`: bash prints the list, not its words. */
  | { kind: 'array'; name: string; raw: string }
  /** `[[ ]]`, `(( ))`, `for`, `select`, `case`: not simple commands; what they run is traced on its own. */
  | { kind: 'compound'; raw: string };

const RECORD_START = new RegExp(`(?:^|\\n)${TRACE_MARK}+T `, 'g');
const COMPOUND = /^(?:\(\(|\[\[ |for |select |case )/;
const ARRAY = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=\(/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?)\+?=/;

/**
 * Splits an xtrace stream into records (a record may span lines when a quoted word holds a newline). The
 * driver's own `eval LINE` record is left out, and so is a last record without its newline (cut by the file-size
 * limit or a kill).
 */
export function parseTrace(text: string, line: string): TraceRecord[] {
  const starts: { at: number; body: number }[] = [];
  for (const m of text.matchAll(RECORD_START)) starts.push({ at: m.index!, body: m.index! + m[0].length });
  const out: TraceRecord[] = [];
  const complete = text.endsWith('\n') ? starts.length : starts.length - 1;
  for (let i = 0; i < complete; i++) {
    const end = i + 1 < starts.length ? starts[i + 1]!.at : text.length;
    let raw = text.slice(starts[i]!.body, end);
    if (raw.endsWith('\n')) raw = raw.slice(0, -1);
    const record = classify(raw);
    if (i === 0 && record.kind === 'argv' && record.words[0] === 'eval' && record.words[1] === line) continue;
    out.push(record);
  }
  return out;
}

function classify(raw: string): TraceRecord {
  if (COMPOUND.test(raw)) return { kind: 'compound', raw };
  const array = ARRAY.exec(raw);
  if (array) return { kind: 'array', name: array[1]!, raw };
  const words = splitWords(raw);
  if (words.length === 1) {
    const m = ASSIGNMENT.exec(raw);
    if (m)
      return { kind: 'assignment', name: m[1]!, value: words[0]!.slice(words[0]!.indexOf('=') + 1), raw };
  }
  return { kind: 'argv', words, raw };
}

/** Reads the words of a record in bash's xtrace quoting: bare, '...', \x and $'...'. */
export function splitWords(raw: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === ' ' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const close = raw.indexOf("'", i + 1);
      const stop = close < 0 ? raw.length : close;
      word += raw.slice(i + 1, stop);
      i = stop + 1;
    } else if (c === '$' && raw[i + 1] === "'") {
      const r = ansiC(raw, i + 2);
      word += r.value;
      i = r.end;
    } else if (c === '\\' && i + 1 < raw.length) {
      word += raw[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes a $'...' body from `start` (after the opening quote); bytes are read as UTF-8. */
function ansiC(raw: string, start: number): { value: string; end: number } {
  const bytes: number[] = [];
  const pushText = (s: string) => {
    for (const b of Buffer.from(s, 'utf8')) bytes.push(b);
  };
  let i = start;
  while (i < raw.length && raw[i] !== "'") {
    const c = raw[i]!;
    if (c !== '\\') {
      pushText(c);
      i++;
      continue;
    }
    const n = raw[i + 1] ?? '';
    if (n in SIMPLE_ESCAPES) {
      pushText(SIMPLE_ESCAPES[n]!);
      i += 2;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(raw.slice(i + 1))![0];
      bytes.push(Number.parseInt(m, 8) & 0xff);
      i += 1 + m.length;
    } else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(raw.slice(i + 2));
      if (m) {
        bytes.push(Number.parseInt(m[0], 16));
        i += 2 + m[0].length;
      } else {
        pushText('\\x');
        i += 2;
      }
    } else if (n === 'u' || n === 'U') {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(raw.slice(i + 2));
      if (m) {
        pushText(String.fromCodePoint(Number.parseInt(m[0], 16)));
        i += 2 + m[0].length;
      } else {
        pushText(`\\${n}`);
        i += 2;
      }
    } else if (n === 'c' && i + 2 < raw.length) {
      bytes.push(raw.charCodeAt(i + 2) & 0x1f);
      i += 3;
    } else {
      pushText(`\\${n}`);
      i += 2;
    }
  }
  return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
}
