/** The same pattern denied this often, or the same tool this often in a row, gets guidance added. */
const PATTERN_LIMIT = 2;
const TOOL_LIMIT = 3;

/** What a call is, for counting denials: the first two words of a command, the file, or the tool alone. */
export function denialPattern(tool: string, input: Record<string, unknown>): string {
  if (typeof input.command === 'string') {
    const words = input.command.trim().split(/\s+/).slice(0, 2).join(' ');
    return `${tool}(${words})`;
  }
  const path = input.file_path ?? input.notebook_path ?? input.path;
  return typeof path === 'string' ? `${tool}(${path})` : tool;
}

/**
 * Counts permission denials per tool and per pattern; an allow clears both. After repeated denials the model is
 * told to change course instead of asking again for what was refused.
 */
export class DenialTracking {
  private readonly byTool = new Map<string, number>();
  private readonly byPattern = new Map<string, number>();

  /** Records a denial; returns guidance for the model once denials repeat. */
  deny(tool: string, input: Record<string, unknown>): string | undefined {
    const pattern = denialPattern(tool, input);
    const t = (this.byTool.get(tool) ?? 0) + 1;
    const p = (this.byPattern.get(pattern) ?? 0) + 1;
    this.byTool.set(tool, t);
    this.byPattern.set(pattern, p);
    if (p >= PATTERN_LIMIT) {
      return `${pattern} has been denied ${p} times in this session. Do not request it again: take a different approach, or stop and ask the user how to proceed.`;
    }
    if (t >= TOOL_LIMIT) {
      return `${tool} has been denied ${t} times in a row. Consider whether another tool or approach would do, or ask the user how to proceed.`;
    }
    return undefined;
  }

  allow(tool: string, input: Record<string, unknown>): void {
    this.byTool.delete(tool);
    this.byPattern.delete(denialPattern(tool, input));
  }
}
