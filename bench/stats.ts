/** Shared figures for bench scripts: percentiles of microsecond samples and a printable table. */
export { percentile } from "../src/domain/percentile.js";

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.log(`\n${title}`);
  console.table(rows);
}

export function elapsedMicros(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1_000;
}
