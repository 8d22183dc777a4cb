import { inputJsonSchema } from './schema.js';
import type { AnyTool } from './tool.js';

export interface Lookup {
  tool: AnyTool;
  /** The deprecated alias the call used, if it used one. */
  deprecated?: string;
}

/** The API `tools` entry for a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The session's tools, by name and alias, with the deferred ones that ToolSearch has loaded. */
export class ToolRegistry {
  private readonly byName = new Map<string, Lookup>();
  private readonly list: AnyTool[] = [];
  private readonly loadedDeferred = new Set<string>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const t of tools) this.add(t);
  }

  add(tool: AnyTool): void {
    if (this.byName.get(tool.name)?.tool === tool) return;
    for (const name of [tool.name, ...tool.aliases, ...tool.deprecatedAliases]) {
      const taken = this.byName.get(name);
      if (taken && taken.tool !== tool)
        throw new Error(`tool name ${name} is used by ${taken.tool.name} already`);
    }
    this.list.push(tool);
    this.byName.set(tool.name, { tool });
    for (const a of tool.aliases) this.byName.set(a, { tool });
    for (const a of tool.deprecatedAliases) this.byName.set(a, { tool, deprecated: a });
  }

  find(name: string): Lookup | undefined {
    return this.byName.get(name);
  }

  all(): readonly AnyTool[] {
    return this.list;
  }

  isDeferred(tool: AnyTool): boolean {
    return tool.shouldDefer && !tool.alwaysLoad;
  }

  /** Whether the model has the tool's schema: it is not deferred, or ToolSearch loaded it. */
  isLoaded(tool: AnyTool): boolean {
    return !this.isDeferred(tool) || this.loadedDeferred.has(tool.name);
  }

  load(tool: AnyTool): void {
    this.loadedDeferred.add(tool.name);
  }

  /** Deferred tools the model has not loaded yet. */
  deferred(): AnyTool[] {
    return this.list.filter((t) => !this.isLoaded(t));
  }

  definition(tool: AnyTool): ToolDefinition {
    return { name: tool.name, description: tool.prompt(), input_schema: inputJsonSchema(tool.inputSchema) };
  }

  /** The `tools` parameter for the next request: every loaded tool. */
  definitions(): ToolDefinition[] {
    return this.list.filter((t) => this.isLoaded(t)).map((t) => this.definition(t));
  }
}
