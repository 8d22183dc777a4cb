import { z } from 'zod';
import { semanticNumber } from '../schema.js';
import { type AnyTool, buildTool, type Tool, type ToolRegistry } from '../tool.js';
import { ToolSearchOutputSchema } from './output-schemas.js';

const input = z.strictObject({
  query: z.string().describe('"select:Name,Other" to load tools by name, or keywords to search for'),
  max_results: semanticNumber(z.number().int().positive().max(50)).optional().describe('Default 5'),
});

export interface ToolSearchOutput {
  loaded: string[];
  /** Names asked for with select: that are no deferred tool. */
  missing: string[];
  schemas: { name: string; description: string; parameters: Record<string, unknown> }[];
}

/** The words of a tool name: `mcp__github__create_issue` → mcp, github, create, issue; `NotebookEdit` → notebook, edit. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function score(tool: AnyTool, terms: string[]): number {
  const name = new Set(words(tool.name));
  const description = tool.description.toLowerCase();
  return terms.reduce((s, t) => s + (name.has(t) ? 3 : 0) + (description.includes(t) ? 1 : 0), 0);
}

function search(registry: ToolRegistry, query: string, max: number): { tools: AnyTool[]; missing: string[] } {
  const deferred = registry.all().filter((t) => registry.isDeferred(t));
  const select = /^select:(.*)$/i.exec(query.trim());
  if (select) {
    const tools: AnyTool[] = [];
    const missing: string[] = [];
    for (const name of select[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)) {
      const tool = deferred.find((t) => t.name === name || t.aliases.includes(name));
      if (tool) tools.push(tool);
      else missing.push(name);
    }
    return { tools, missing };
  }
  const terms = words(query);
  const ranked = deferred
    .map((tool) => ({ tool, s: score(tool, terms) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.tool.name.localeCompare(b.tool.name));
  return { tools: ranked.slice(0, max).map((x) => x.tool), missing: [] };
}

/** Loads the schemas of deferred tools on demand, by name (`select:A,B`) or by keywords. */
export function toolSearchTool(): Tool<z.infer<typeof input>, ToolSearchOutput> {
  return buildTool({
    name: 'ToolSearch',
    description: 'Load deferred tools by name or keyword',
    prompt: () =>
      'Some tools are deferred: only their names are listed. Call ToolSearch with "select:Name,Other" or with keywords to load their schemas; then call them.',
    inputSchema: input,
    outputSchema: ToolSearchOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    async *call(args, ctx) {
      const { tools, missing } = search(ctx.registry, args.query, args.max_results ?? 5);
      for (const t of tools) ctx.registry.load(t);
      const schemas = tools.map((t) => {
        const d = ctx.registry.definition(t);
        return { name: d.name, description: d.description, parameters: d.input_schema };
      });
      yield { type: 'result', data: { loaded: tools.map((t) => t.name), missing, schemas } };
    },
    mapToolResult(out) {
      const missing = out.missing.length > 0 ? `\nNo deferred tool named: ${out.missing.join(', ')}` : '';
      if (out.schemas.length === 0) return `No matching deferred tools found.${missing}`;
      const fns = out.schemas.map((s) => `<function>${JSON.stringify(s)}</function>`).join('\n');
      return `<functions>\n${fns}\n</functions>${missing}`;
    },
  });
}

/** The line to add to the system prompt so the model knows which deferred tools exist. */
export function deferredToolsNotice(registry: ToolRegistry): string {
  const names = registry.deferred().map((t) => t.name);
  return names.length > 0 ? `Deferred tools (load with ToolSearch): ${names.join(', ')}` : '';
}
