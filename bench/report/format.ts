/** How the report writes numbers and tables. */

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const met = (ok: boolean | null) =>
  ok === null ? 'not measured' : ok ? '**met**' : '**not met**';
export const k = (n: number) =>
  n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);
export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export function markdownTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
