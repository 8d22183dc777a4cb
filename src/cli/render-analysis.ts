import type { Analysis, Redirect, SimpleCommand, Span } from '../bash/index.js';
import { commandLine as lineOf, wordText } from '../bash/index.js';
import type { Colors } from '../shared/index.js';

/** Extra text to show under a command, keyed by command id (the classifier adds decisions here). */
export type Annotate = (cmd: SimpleCommand) => string[];

export function renderAnalysis(a: Analysis, c: Colors, annotate?: Annotate): string {
  const lines: string[] = [];
  const status = a.opaque
    ? c.red('opaque: cannot be fully resolved, never auto-allowed')
    : c.green('fully resolved');
  lines.push(`${c.bold('command')}  ${a.source.includes('\n') ? JSON.stringify(a.source) : a.source}`);
  lines.push(`${c.bold('status')}   ${status}`);
  const byCarrier = new Map<number, SimpleCommand[]>();
  const roots: SimpleCommand[] = [];
  for (const cmd of a.commands) {
    if (cmd.nested) {
      const list = byCarrier.get(cmd.nested.carrier) ?? [];
      list.push(cmd);
      byCarrier.set(cmd.nested.carrier, list);
    } else {
      roots.push(cmd);
    }
  }
  lines.push(c.bold(`commands (${a.commands.length})`));
  const walk = (cmd: SimpleCommand, indent: string, last: boolean, top: boolean): void => {
    const branch = top ? '' : last ? '└─ ' : '├─ ';
    const via = cmd.nested
      ? c.dim(` ← ${cmd.nested.kind} ${cmd.nested.via}${cmd.nested.extraArgs ? ' (+args)' : ''}`)
      : '';
    lines.push(`${indent}${branch}${commandLine(cmd, c)}${via}`);
    const pad = indent + (top ? '   ' : last ? '   ' : '│  ');
    for (const detail of details(cmd, a, c)) lines.push(`${pad}${detail}`);
    for (const note of annotate?.(cmd) ?? []) lines.push(`${pad}${note}`);
    const kids = byCarrier.get(cmd.id) ?? [];
    for (const [i, k] of kids.entries()) walk(k, pad, i === kids.length - 1, false);
  };
  for (const r of roots) walk(r, '  ', true, true);
  if (a.compoundRedirects.length > 0) {
    lines.push(c.bold('redirections on compound commands'));
    for (const r of a.compoundRedirects)
      lines.push(`  ${redirectText(r)}${r.writes ? c.yellow('  (write)') : ''}`);
  }
  if (a.functions.length > 0) lines.push(`${c.bold('functions')} ${a.functions.join(', ')}`);
  if (a.problems.length > 0) {
    lines.push(c.bold(c.red('problems')));
    for (const p of a.problems) {
      const at = p.span ? ` at ${position(a.source, p.span)}` : '';
      lines.push(`  ${c.red(p.code)}${at}: ${p.message}`);
    }
  }
  return lines.join('\n');
}

function commandLine(cmd: SimpleCommand, c: Colors): string {
  const env = cmd.assignments.map((x) => lineOf({ assignments: [x], argv: [] }));
  const argv = cmd.argv.map((w, i) => {
    const shown = wordText(w, i === 0);
    if (i === 0) return cmd.name?.dynamic ? c.red(shown) : c.cyan(c.bold(shown));
    return w.static ? shown : c.magenta(shown);
  });
  const text = [...env.map((e) => c.dim(e)), ...argv].join(' ') || c.dim('(assignment only)');
  const flags = cmd.context.length > 0 ? c.dim(`  [${cmd.context.join(', ')}]`) : '';
  return `#${cmd.id} ${text}${flags}`;
}

function details(cmd: SimpleCommand, a: Analysis, c: Colors): string[] {
  const out: string[] = [];
  if (cmd.name?.dynamic) out.push(c.red('command name known only at run time'));
  if (cmd.name?.path) out.push(c.dim(`program ${cmd.name.program} (from ${cmd.name.path})`));
  if (cmd.name && a.functions.includes(cmd.name.program))
    out.push(c.dim('calls a function defined in this input'));
  for (const r of cmd.redirects)
    out.push(`redirect ${redirectText(r)}${r.writes ? c.yellow(' (write)') : ''}`);
  for (const e of cmd.executes) {
    out.push(
      c.yellow(`runs ${e.kind} via ${e.program} ${e.via}${e.code !== undefined ? `: ${short(e.code)}` : ''}`),
    );
  }
  const fx = cmd.effects.map((e) => `${e.access} ${e.path.value}`);
  if (fx.length > 0)
    out.push(`files: ${fx.join(', ')}${cmd.effectsKnown ? '' : c.dim(' (and possibly others)')}`);
  else if (!cmd.effectsKnown) out.push(c.dim('files: unknown'));
  return out;
}

function redirectText(r: Redirect): string {
  return `${r.fd ?? ''}${r.op} ${r.target.value}`;
}

function short(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 60)}…` : one;
}

/** 1-based line:column of a span start. */
export function position(source: string, span: Span): string {
  const before = source.slice(0, span.start);
  const line = before.split('\n').length;
  const column = span.start - before.lastIndexOf('\n');
  return `${line}:${column}`;
}
