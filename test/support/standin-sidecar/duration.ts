/** Dapr durations: Go style (`1.5s`, `1h2m`, `250ms`) or ISO 8601 (`PT1.5S`). */
export function parseDuration(text: string): number {
  const iso = /^P(?:(\d+)D)?(?:T(?:([\d.]+)H)?(?:([\d.]+)M)?(?:([\d.]+)S)?)?$/i.exec(text);
  if (iso) {
    const [, d = "0", h = "0", m = "0", s = "0"] = iso;
    return Math.round(((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60_000 + Number(s) * 1000);
  }
  const units: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 1e-3,
    µs: 1e-3,
    ns: 1e-6,
  };
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const part = /^([\d.]+)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!part) throw new Error(`Not a duration: ${text}`);
    total += Number(part[1]) * (units[part[2] as string] as number);
    rest = rest.slice(part[0].length);
  }
  return Math.round(total);
}
