import { randomBytes } from 'node:crypto';
import { chmod, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  applyEdits,
  type Edit,
  type FormattingOptions,
  findNodeAtLocation,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { makeDirectories } from '../../shared/index.js';
import { parsePermissionRule, type RuleIssue } from '../permission/parse.js';
import type { Behavior, PermissionRule, SourceName } from '../types.js';
import { bySource } from './order.js';
import { projectFolders } from './project-root.js';
import type { LoadedSettings, Position } from './types.js';

/** The settings files `automode rules add` and `remove` write, as `/permissions` in Claude Code does. */
export type RuleScope = 'user' | 'project' | 'local';

export const RULE_SCOPES: readonly RuleScope[] = ['local', 'project', 'user'];

export interface ScopeFile {
  scope: RuleScope;
  source: SourceName;
  path: string;
  /** The folder `/x` path rules are relative to. */
  root: string;
}

/** The file a scope names, as `locateSettings` finds it (so the loaded rules carry the same path). */
export function scopeFile(
  scope: RuleScope,
  ctx: { cwd: string; home: string; env?: NodeJS.ProcessEnv },
): ScopeFile {
  if (scope === 'user') {
    const folder = (ctx.env ?? process.env).CLAUDE_CONFIG_DIR ?? path.join(ctx.home, '.claude');
    return { scope, source: 'userSettings', path: path.join(folder, 'settings.json'), root: folder };
  }
  const name = scope === 'project' ? 'settings.json' : 'settings.local.json';
  const { projectRoot, localRoot } = projectFolders(ctx.cwd, (ctx.env ?? process.env).CLAUDE_PROJECT_DIR);
  const root = scope === 'project' ? projectRoot : localRoot;
  return {
    scope,
    source: scope === 'project' ? 'projectSettings' : 'localSettings',
    path: path.join(root, '.claude', name),
    root,
  };
}

export interface RuleEdit {
  op: 'add' | 'remove';
  behavior: Behavior;
  rule: string;
}

export type EditOutcome =
  /** `text` is the new file; `at` is where the rule now is (add) or was (remove). */
  | { status: 'changed'; text: string; at: Position }
  /** add: the rule is already in the list. */
  | { status: 'present'; at: Position }
  /** remove: the rule is not in the list. */
  | { status: 'absent' }
  | { status: 'invalid'; message: string; line: number; column: number };

/** Whether a rule may be written: its errors, and an unknown tool name, refuse it; other warnings do not. */
export function checkRuleText(
  rule: string,
  behavior: Behavior,
): { refused: RuleIssue[]; warnings: RuleIssue[] } {
  const { issues } = parsePermissionRule(rule, { behavior });
  const refuses = (i: RuleIssue) => i.severity === 'error' || i.code === 'unknown-tool';
  return { refused: issues.filter(refuses), warnings: issues.filter((i) => !refuses(i)) };
}

/**
 * Adds a rule to, or removes it from, `permissions.<behavior>` of a JSON-with-comments settings text. Every
 * byte but the element (and, on removal, the rest of its line when it stands alone there) is kept.
 */
export function editRuleText(text: string, edit: RuleEdit): EditOutcome {
  return editStringList(text, ['permissions', edit.behavior], edit.op, edit.rule);
}

/** Adds a program to, or removes it from, `automode.readServices`, as `editRuleText` edits a rule list. */
export function editReadServicesText(text: string, op: 'add' | 'remove', program: string): EditOutcome {
  return editStringList(text, ['automode', 'readServices'], op, program);
}

/** A list of strings at `[object key, list key]`, edited in place. */
type ListPath = readonly [string, string];

function editStringList(text: string, where: ListPath, op: 'add' | 'remove', value: string): EditOutcome {
  const parsed = text.trim() === '' ? { root: undefined } : parseSettingsText(text);
  if ('message' in parsed) return { status: 'invalid', ...parsed };
  const list = stringList(text, parsed.root, where);
  if ('message' in list) return { status: 'invalid', ...list };
  const matches = (list.node?.children ?? []).filter(
    (n) => n.type === 'string' && String(n.value).trim() === value.trim(),
  );
  if (op === 'add') {
    if (matches[0]) return { status: 'present', at: positionOf(text, matches[0].offset) };
    const edits = list.node ? appendEdits(text, list.node, where, value) : createEdits(text, where, value);
    const out = applyEdits(text, edits);
    const added = lastMatch(out, where, value);
    return { status: 'changed', text: out, at: positionOf(out, added?.offset ?? 0) };
  }
  if (!matches[0]) return { status: 'absent' };
  const at = positionOf(text, matches[0].offset);
  let out = text;
  for (;;) {
    const tree = parseSettingsText(out);
    if ('message' in tree || !tree.root) break;
    const node = findNodeAtLocation(tree.root, [...where]);
    const children = node?.children ?? [];
    const index = children.findIndex((n) => n.type === 'string' && String(n.value).trim() === value.trim());
    if (!node || index < 0) break;
    const step = removeEdits(out, children, index);
    out = applyEdits(out, step);
  }
  return { status: 'changed', text: out, at };
}

function parseSettingsText(
  text: string,
): { root: Node | undefined } | { message: string; line: number; column: number } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = positionOf(text, first.offset);
    return { message: `not valid JSON with comments: ${printParseErrorCode(first.error)}`, line, column };
  }
  if (root !== undefined && root.type !== 'object')
    return { message: 'a settings file holds a JSON object', ...positionOf(text, root.offset) };
  return { root };
}

function stringList(
  text: string,
  root: Node | undefined,
  [block, key]: ListPath,
): { node?: Node } | { message: string; line: number; column: number } {
  if (!root) return {};
  const outer = findNodeAtLocation(root, [block]);
  if (outer && outer.type !== 'object')
    return { message: `${block} is not an object`, ...positionOf(text, outer.offset) };
  const node = outer && findNodeAtLocation(root, [block, key]);
  if (node && node.type !== 'array')
    return { message: `${block}.${key} is not an array`, ...positionOf(text, node.offset) };
  return node ? { node } : {};
}

function lastMatch(text: string, where: ListPath, rule: string): Node | undefined {
  const parsed = parseSettingsText(text);
  if ('message' in parsed || !parsed.root) return undefined;
  const list = findNodeAtLocation(parsed.root, [...where]);
  return list?.children?.filter((n) => n.value === rule).at(-1);
}

/** The file's own indentation and line ending, for text jsonc-parser writes. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const widths = indents.map((i) => i.length).filter((w) => w > 0);
  return { insertSpaces: true, tabSize: widths.length ? Math.min(...widths) : 2, eol };
}

/** `permissions` or `permissions.<behavior>` is missing: jsonc-parser writes it in the file's style. */
function createEdits(text: string, [block, key]: ListPath, rule: string): Edit[] {
  const base = text.trim() === '' ? '{}\n' : text;
  const formattingOptions = formattingOf(base);
  const root = parseTree(base, [], { allowTrailingComma: true });
  const hasBlock = root !== undefined && findNodeAtLocation(root, [block]) !== undefined;
  const edits = modify(base, hasBlock ? [block, key] : [block], hasBlock ? [rule] : { [key]: [rule] }, {
    formattingOptions,
  });
  return base === text ? edits : [{ offset: 0, length: text.length, content: applyEdits(base, edits) }];
}

/**
 * A new last element, placed as the others are: on a line of its own, indented as the last one, after its
 * comma and the comment on its line; or after it on the same line. A trailing comma stays trailing.
 */
function appendEdits(text: string, list: Node, where: ListPath, rule: string): Edit[] {
  const last = list.children?.at(-1);
  const literal = JSON.stringify(rule);
  if (!last) return modify(text, [...where, -1], rule, { formattingOptions: formattingOf(text) });
  const end = last.offset + last.length;
  let i = end;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const trailingComma = text[i] === ',';
  if (trailingComma) i++;
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const indent = text.slice(lineStart, last.offset);
  const ownLine = /^[ \t]*$/.test(indent) && lineEnd(text, i) !== undefined;
  if (!ownLine) {
    return [{ offset: end, length: 0, content: `, ${literal}` }];
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const at = lineEnd(text, i)!;
  const edits: Edit[] = [];
  if (!trailingComma) edits.push({ offset: end, length: 0, content: ',' });
  edits.push({ offset: at, length: 0, content: `${eol}${indent}${literal}${trailingComma ? ',' : ''}` });
  return edits;
}

/** The end of the line at `from` (before `\r\n` or `\n`) when only spaces and a comment are left on it. */
function lineEnd(text: string, from: number): number | undefined {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text.startsWith('//', i)) {
    while (i < text.length && text[i] !== '\n') i++;
    return text[i - 1] === '\r' ? i - 1 : i;
  }
  if (text.startsWith('/*', i)) {
    const close = text.indexOf('*/', i + 2);
    if (close < 0 || text.slice(i, close).includes('\n')) return undefined;
    return lineEnd(text, close + 2);
  }
  if (text[i] === '\n') return i;
  if (text[i] === '\r' && text[i + 1] === '\n') return i;
  return undefined;
}

/**
 * Removes one element. Alone on its line, the line goes (with its comment), and a comma left dangling before
 * the closing bracket goes too unless the list had a trailing comma. Beside others on a line, it goes with the
 * comma that separates it.
 */
function removeEdits(text: string, children: Node[], index: number): Edit[] {
  const node = children[index]!;
  const end = node.offset + node.length;
  let i = end;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const hasComma = text[i] === ',';
  if (hasComma) i++;
  const lineStart = text.lastIndexOf('\n', node.offset) + 1;
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart, node.offset));
  const stop = lineEnd(text, i);
  const next = children[index + 1];
  const previous = children[index - 1];
  if (!ownLine || stop === undefined) {
    if (next) return [{ offset: node.offset, length: next.offset - node.offset, content: '' }];
    if (previous) {
      const from = previous.offset + previous.length;
      return [{ offset: from, length: end - from, content: '' }];
    }
    return [{ offset: node.offset, length: i - node.offset, content: '' }];
  }
  const lineAfter = text.startsWith('\r\n', stop) ? stop + 2 : stop + 1;
  const edits: Edit[] = [{ offset: lineStart, length: lineAfter - lineStart, content: '' }];
  if (!hasComma && index === children.length - 1 && previous) {
    let j = previous.offset + previous.length;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text[j] === ',') edits.push({ offset: j, length: 1, content: '' });
  }
  return edits;
}

function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

export type ReadForEdit = { text: string; exists: boolean; mode?: number } | { error: string };

/** The file's text and mode, or an empty text when it does not exist yet. */
export async function readForEdit(file: string): Promise<ReadForEdit> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { text, exists: true, mode: info.mode & 0o7777 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: '', exists: false };
    return { error: `cannot read ${file}: ${(err as Error).message}` };
  }
}

/**
 * Writes through a temporary file in the same folder and a rename, so a reader sees the old file or the new one,
 * never half of it; the file keeps its mode, and a symbolic link keeps pointing where it did.
 */
export async function writeAtomically(file: string, text: string, mode?: number): Promise<void> {
  let target = file;
  try {
    target = await realpath(file);
  } catch {
    makeDirectories(path.dirname(file));
  }
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

/**
 * The settings as they are once the edit is made, without reading the files again: the rule added from the
 * scope's file, or every copy of it there removed.
 */
export function withRuleEdit(
  settings: LoadedSettings,
  edit: RuleEdit,
  file: ScopeFile,
  at?: Position,
): LoadedSettings {
  const fromFile = (r: LoadedSettings['rules'][number]) =>
    r.type === 'permission' &&
    r.provenance.source === file.source &&
    r.provenance.file === file.path &&
    r.behavior === edit.behavior &&
    r.text.trim() === edit.rule.trim();
  if (edit.op === 'remove') return { ...settings, rules: settings.rules.filter((r) => !fromFile(r)) };
  if (settings.rules.some(fromFile) || settings.scalars.allowManagedPermissionRulesOnly?.value === true)
    return settings;
  const { parsed, issues } = parsePermissionRule(edit.rule, { behavior: edit.behavior, root: file.root });
  if (!parsed || issues.some((i) => i.severity === 'error')) return settings;
  const index = settings.rules.filter(
    (r) => r.provenance.file === file.path && r.behavior === edit.behavior,
  ).length;
  const rule: PermissionRule = {
    type: 'permission',
    behavior: edit.behavior,
    text: edit.rule,
    parsed,
    provenance: {
      source: file.source,
      file: file.path,
      pointer: `/permissions/${edit.behavior}/${index}`,
      index,
      ...(at ? { line: at.line, column: at.column } : {}),
    },
  };
  return { ...settings, rules: bySource([...settings.rules, rule], (r) => r.provenance.source) };
}
