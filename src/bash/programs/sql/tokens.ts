/** One SQL token: a bare word (lower-cased), a quoted name, a string, a number or punctuation. */
export interface Token {
  kind: 'word' | 'quoted' | 'string' | 'number' | 'punct';
  text: string;
}

const TOKEN =
  /\s+|([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"]|"")*"|`(?:[^`]|``)*`)|('(?:[^']|'')*')|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|(\|\||<=|>=|<>|!=|==|::|[(),.;*=<>+\-/%&|~])/y;

/**
 * The tokens of an SQL text, or undefined for anything the allow-lists do not read: comments (`--`, `/*`, `#`),
 * parameters and variables (`?`, `:name`, `$1`, `@x`, `$$…$$`), backslashes (an escape in MySQL's strings and
 * PostgreSQL's `E'…'`, a client command in psql and mysql), prefixed strings (`E'…'`, `X'…'`, `N'…'`) and
 * square-bracket names. What the server would read differently from these tokens is never read.
 */
export function tokenize(sql: string): Token[] | undefined {
  if (sql.includes('\\')) return undefined;
  const out: Token[] = [];
  let at = 0;
  let lastEnd = -1;
  while (at < sql.length) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(sql);
    if (!m) return undefined;
    const start = at;
    at = TOKEN.lastIndex;
    const glued = start > 0 && /[A-Za-z0-9_'"`]/.test(sql[start - 1]!);
    if (m[1]) out.push({ kind: 'word', text: m[1].toLowerCase() });
    else if (m[2]) out.push({ kind: 'quoted', text: m[2].slice(1, -1).toLowerCase() });
    else if (m[3]) {
      if (glued) return undefined;
      out.push({ kind: 'string', text: m[3] });
    } else if (m[4]) out.push({ kind: 'number', text: m[4] });
    else if (m[5]) {
      const last = out.at(-1);
      const pair = last?.kind === 'punct' && lastEnd === start ? `${last.text}${m[5]}` : '';
      if (pair === '--' || pair === '/*' || pair === '*/') return undefined;
      out.push({ kind: 'punct', text: m[5] });
    }
    if (!/^\s/.test(m[0])) lastEnd = at;
  }
  return out;
}

/** The statements of a token list, split at `;`; empty statements dropped. */
export function statements(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'punct' && token.text === ';') out.push([]);
    else out.at(-1)!.push(token);
  }
  return out.filter((statement) => statement.length > 0);
}
