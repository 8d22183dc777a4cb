// The statistics every benchmark section reports: one definition of the median, the p99 and the mean.

/** The q-quantile of sorted values, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx];
}

/** The median, the mean of the two middle values when their number is even. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median, p99 and mean of a run of timings, with their range: min and max show the machine's noise. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: median(sorted),
    p99: quantile(sorted, 0.99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0],
    max: sorted.at(-1),
  };
}
