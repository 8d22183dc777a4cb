const ANSI = /\x1b\[[0-9;]*m/g;

export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** Rows padded into columns (two spaces apart); `r` aligns a column right. Colour codes do not count. */
export function table(rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - visibleLength(cell));
        return align[i] === 'r' ? pad + cell : i === row.length - 1 ? cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}
