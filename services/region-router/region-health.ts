/**
 * Whether each regional instance is healthy: its readiness probe (`/readyz`: it answers and its
 * stores do) every interval, down after two failed probes in a row, or at once when the router
 * could not reach it with a request; up again on the next probe that passes.
 */
import type { Region } from "./region-choice.js";

/** Consecutive failed probes that take a region out. */
const FAILED_PROBES_FOR_DOWN = 2;
const PROBE_TIMEOUT_MS = 1_000;

export class RegionHealth {
  private readonly failures = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly regions: readonly Region[],
    private readonly intervalMs: number,
    private readonly onChange: (region: string, healthy: boolean) => void = () => {},
  ) {
    // Unknown until probed: a region counts as down until its first probe passes.
    for (const region of regions) this.failures.set(region.name, FAILED_PROBES_FOR_DOWN);
  }

  healthy(region: string): boolean {
    return (this.failures.get(region) ?? FAILED_PROBES_FOR_DOWN) < FAILED_PROBES_FOR_DOWN;
  }

  /** A request could not reach the region: out now, without waiting for the probes. */
  unreachable(region: string): void {
    this.record(region, FAILED_PROBES_FOR_DOWN);
  }

  async probeAll(): Promise<void> {
    await Promise.all(this.regions.map((region) => this.probe(region)));
  }

  start(): void {
    const tick = async () => {
      await this.probeAll();
      if (this.stopped) return;
      this.timer = setTimeout(tick, this.intervalMs);
      this.timer.unref();
    };
    void tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async probe(region: Region): Promise<void> {
    let passed = false;
    try {
      const response = await fetch(`${region.url}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.arrayBuffer();
      passed = response.ok;
    } catch {
      passed = false;
    }
    this.record(region.name, passed ? 0 : (this.failures.get(region.name) ?? 0) + 1);
  }

  private record(region: string, failures: number): void {
    const was = this.healthy(region);
    this.failures.set(region, failures);
    const is = this.healthy(region);
    if (was !== is) this.onChange(region, is);
  }
}
