/**
 * A plain copy of the tree-sitter tree. Every property of a web-tree-sitter node is a call into WebAssembly
 * that marshals the node again; the audits and the walker read each node many times, so the tree is copied
 * once, in one pass, and read from the copy.
 */
const NO_CHILDREN: SyntaxNode[] = [];

export class SyntaxNode {
  children: SyntaxNode[] = NO_CHILDREN;
  /** Field name of each child, for node types that have fields. */
  fields: Array<string | null> | undefined;
  parent: SyntaxNode | null = null;
  private index = 0;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    public endIndex: number,
    private readonly source: string,
  ) {}

  /** Whether this node or one below it is an ERROR or MISSING node; set while copying. */
  errorBelow = false;

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get childCount(): number {
    return this.children.length;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get namedChildren(): SyntaxNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  get hasError(): boolean {
    return this.errorBelow;
  }

  get previousSibling(): SyntaxNode | null {
    return this.parent?.children[this.index - 1] ?? null;
  }

  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }

  namedChild(i: number): SyntaxNode | null {
    return this.namedChildren[i] ?? null;
  }

  fieldNameForChild(i: number): string | null {
    return this.fields?.[i] ?? null;
  }

  childForFieldName(name: string): SyntaxNode | null {
    const i = this.fields?.indexOf(name) ?? -1;
    return i >= 0 ? (this.children[i] ?? null) : null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    return this.children.filter((_, i) => this.fields?.[i] === name);
  }

  adopt(child: SyntaxNode): void {
    if (this.children === NO_CHILDREN) this.children = [];
    child.parent = this;
    child.index = this.children.length;
    this.children.push(child);
  }
}
