/** Rounds to a number of decimals, the way vendors cut coordinates and prices on their wire. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
