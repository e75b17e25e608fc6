/** A SCAN MATCH pattern for every key starting with `prefix`, whatever glob characters the prefix holds. */
export function keysStartingWith(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
}
