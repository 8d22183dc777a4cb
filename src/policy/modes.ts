import type { Mode } from '../shared/index.js';
import type { PartVerdict } from './verdict.js';
import { alwaysAsks } from './verdict.js';

/**
 * Applies the permission mode to each part. `dontAsk` denies whatever is not allowed; `bypassPermissions`
 * allows whatever no rule asks or denies, except what fails closed; `plan` allows only reading and asks about
 * the rest (Claude Code's plan mode prompts, it does not refuse: reference as of v2.1.240).
 */
export function applyMode(parts: PartVerdict[], mode: Mode): PartVerdict[] {
  if (mode !== 'dontAsk' && mode !== 'bypassPermissions' && mode !== 'plan') return parts;
  return parts.map((p) => {
    switch (mode) {
      case 'dontAsk':
        return p.decision === 'ask'
          ? { ...p, decision: 'deny', by: 'mode', reason: `dontAsk: ${p.reason}` }
          : p;
      case 'bypassPermissions':
        if (p.decision !== 'ask' || alwaysAsks(p.by) || p.rule) return p;
        return { ...p, decision: 'allow', by: 'mode', reason: `bypassPermissions: ${p.reason}` };
      case 'plan':
        if (p.decision === 'deny') return p;
        if (isReadingPart(p)) return p;
        return { ...p, decision: 'ask', by: 'mode', reason: `plan mode only reads: ${p.reason}` };
      default:
        return p;
    }
  });
}

function isReadingPart(p: PartVerdict): boolean {
  if (p.readOnly === true || p.by === 'wrapper' || p.subject.startsWith('reads ')) return true;
  return p.command === undefined && p.by === 'read-only';
}
