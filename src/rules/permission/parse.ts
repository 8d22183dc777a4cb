import { didYouMean } from '../closest-name.js';
import type { Behavior, DiagnosticCode, ParsedPermission, PathTool, Severity } from '../types.js';
import { PATH_TOOLS } from '../types.js';
import { parseBashPattern } from './bash.js';
import { parseDomainPattern } from './domain.js';
import { parseMcpName } from './mcp.js';
import { parsePathPattern } from './path.js';
import {
  BASH_PARAMS,
  canonicalToolName,
  isKnownTool,
  MAIN_FIELDS,
  PATH_TOOL_PARAMS,
  suggestTool,
  WEBFETCH_PARAMS,
} from './tools.js';

export interface RuleIssue {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
}

export interface ParseResult {
  /** Absent when the rule has an error. */
  parsed?: ParsedPermission;
  issues: RuleIssue[];
}

export interface ParseOptions {
  behavior: Behavior;
  /** The settings file's root folder, the anchor of `/x` path patterns. */
  root?: string;
}

const PARAM = /^([A-Za-z_][A-Za-z0-9_]*):([\s\S]*)$/;

export function parsePermissionRule(text: string, options: ParseOptions): ParseResult {
  const split = splitRule(text.trim());
  if ('error' in split) return { issues: [split.error] };
  const { specifier } = split;
  const name = canonicalToolName(split.name);
  if (name.includes('*')) {
    const wildcard = toolWildcard(name, specifier, options.behavior);
    if (wildcard) return wildcard;
  }
  const issues: RuleIssue[] = [];
  if (!isKnownTool(name)) {
    const suggestion = suggestTool(name);
    const hint = didYouMean(suggestion);
    issues.push(warning('unknown-tool', `unknown tool "${name}"${hint}`));
  }
  if (name.startsWith('mcp__')) {
    const mcp = parseMcpName(name);
    if (!mcp || mcp.server.includes('*')) {
      return {
        issues: [error('rule-syntax', `invalid MCP rule "${name}": write mcp__server or mcp__server__tool`)],
      };
    }
    if (specifier === undefined) return { parsed: { kind: 'mcp', tool: name, ...mcp }, issues };
  }
  if (specifier === undefined) return { parsed: { kind: 'tool', tool: name }, issues };
  const parsed = parseSpecifier(name, specifier, options, issues);
  return { parsed, issues };
}

/**
 * A wildcard in a tool's name, as Claude Code reads it (reference as of v2.1.240): in deny and ask rules `*` is
 * every tool and `mcp__*` every MCP tool; in allow rules a wildcard tool name (`*`, `B*`, `mcp__*`) is skipped
 * with a warning, so that no allow rule covers tools nobody named. `mcp__server__*` is an MCP rule as before.
 * Undefined: not a tool-name wildcard.
 */
function toolWildcard(
  name: string,
  specifier: string | undefined,
  behavior: Behavior,
): ParseResult | undefined {
  const mcpServer = name.startsWith('mcp__') && !name.slice(5).split('__')[0]?.includes('*');
  if (mcpServer) return undefined;
  if (specifier !== undefined)
    return {
      issues: [error('rule-syntax', `"*" in tool name "${name}": a tool wildcard takes no specifier`)],
    };
  if (behavior === 'allow') {
    const message = `allow rule "${name}" names tools by a wildcard: Claude Code skips it, and so does automode`;
    return { issues: [warning('allow-tool-wildcard', message)] };
  }
  if (name === '*') return { parsed: { kind: 'tool', tool: '*' }, issues: [] };
  if (name === 'mcp__*') return { parsed: { kind: 'mcp', tool: name, server: '*' }, issues: [] };
  return {
    issues: [error('rule-syntax', `"*" in tool name "${name}": only * and mcp__* name tools by a wildcard`)],
  };
}

function parseSpecifier(
  name: string,
  specifier: string,
  options: ParseOptions,
  issues: RuleIssue[],
): ParsedPermission {
  const param = PARAM.exec(specifier);
  if (name === 'Bash') {
    if (param && BASH_PARAMS.has(param[1]!) && !specifier.endsWith(':*')) {
      return paramRule(name, param[1]!, param[2]!, options, issues);
    }
    if (specifier.trim() === '*' || specifier.trim() === ':*') return { kind: 'tool', tool: name };
    const { pattern, warnings } = parseBashPattern(specifier);
    for (const { code, message } of warnings) issues.push(warning(code, message));
    return { kind: 'bash', tool: 'Bash', pattern };
  }
  if (name === 'WebFetch') {
    if (param?.[1] === 'domain') {
      const { pattern, warning: message } = parseDomainPattern(param[2]!);
      if (message) issues.push(warning('webfetch-specifier', message));
      return { kind: 'domain', tool: 'WebFetch', pattern };
    }
    if (param && WEBFETCH_PARAMS.has(param[1]!))
      return paramRule(name, param[1]!, param[2]!, options, issues);
    issues.push(warning('webfetch-specifier', 'WebFetch rules take the form WebFetch(domain:example.com)'));
    return { kind: 'specifier', tool: name, specifier };
  }
  if (isPathTool(name)) {
    if (param && PATH_TOOL_PARAMS[name]?.includes(param[1]!)) {
      return paramRule(name, param[1]!, param[2]!, options, issues);
    }
    if (name === 'Write' || name === 'Glob') {
      const instead = name === 'Write' ? 'Edit' : 'Read';
      issues.push(
        warning(
          'path-rule-ignored',
          `Claude Code never consults path rules on ${name}; write ${instead}(${specifier}) instead`,
        ),
      );
    }
    return { kind: 'path', tool: name, pattern: parsePathPattern(specifier, options.root) };
  }
  if (param) return paramRule(name, param[1]!, param[2]!, options, issues);
  return { kind: 'specifier', tool: name, specifier };
}

function paramRule(
  tool: string,
  param: string,
  value: string,
  options: ParseOptions,
  issues: RuleIssue[],
): ParsedPermission {
  if (MAIN_FIELDS.has(param)) {
    issues.push(
      warning(
        'param-main-field',
        `"${param}" is a main field: Claude Code never applies ${tool}(${param}:...) rules; write ${tool}(${value}) instead`,
      ),
    );
  }
  if (options.behavior === 'allow') {
    issues.push(warning('param-allow-ignored', `${tool}(${param}:...) rules only apply to deny and ask`));
  }
  return { kind: 'param', tool, param, value };
}

type Split = { name: string; specifier?: string } | { error: RuleIssue };

function splitRule(text: string): Split {
  if (!text) return { error: error('rule-empty', 'empty rule') };
  const open = text.indexOf('(');
  const name = open === -1 ? text : text.slice(0, open);
  if (name !== '*' && !/^[A-Za-z_][A-Za-z0-9_*-]*$/.test(name)) {
    return { error: error('rule-syntax', `invalid tool name "${name}": expected Tool or Tool(specifier)`) };
  }
  if (open === -1) return { name };
  if (!text.endsWith(')')) return { error: error('rule-syntax', `missing ")" at the end of "${text}"`) };
  const inner = text.slice(open + 1, -1);
  if (!balanced(inner)) {
    return {
      error: error(
        'rule-syntax',
        'unbalanced parentheses in the specifier; escape literal ones as \\( and \\)',
      ),
    };
  }
  const specifier = inner.replace(/\\([()])/g, '$1');
  if (!specifier.trim())
    return { error: error('rule-empty', `empty specifier: write "${name}" for every use`) };
  return { name, specifier };
}

function balanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function isPathTool(name: string): name is PathTool {
  return (PATH_TOOLS as readonly string[]).includes(name);
}

function warning(code: DiagnosticCode, message: string): RuleIssue {
  return { severity: 'warning', code, message };
}

function error(code: DiagnosticCode, message: string): RuleIssue {
  return { severity: 'error', code, message };
}
