import { formatNumber } from '../../transforms/text-facts.js';

/** Formats an integer with thousands separators. */
export function integer(value: number): string {
  return formatNumber(Math.round(value));
}

/** Renders rows as aligned columns; numbers (and the header of numeric columns) are right-aligned. */
export function renderColumns(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  const numeric = widths.map((_, index) =>
    rows.slice(1).every((row) => /^[-\d,.%]*$/.test(row[index] ?? '')),
  );
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, index) =>
            numeric[index] === true ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0),
          )
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** `12 (34.5 %)`-style share of a total. */
export function share(value: number, total: number): string {
  return total === 0 ? '0 %' : `${((100 * value) / total).toFixed(1)} %`;
}
