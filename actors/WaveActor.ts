import { type Incarnation, isPredecessor } from "../src/domain/incarnation.js";
import { waveUrnFor } from "../src/domain/allocation/wave-addresses.js";
import { DomainError } from "../src/domain/domain-error.js";
import type { GroupOverriddenData, WaveCompletedData } from "../src/domain/events/allocation.js";
import type { ReviewItemRequestedData } from "../src/domain/events/review-item.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** How long a started wave holds its case before another may start (a crashed wave lets go). */
export const WAVE_LEASE_MS = 60_000;

export interface BeginWaveCommand {
  tenant: string;
  caseUrn: string;
  /** The process beginning the wave: a wave its dead predecessor left running is taken over at once. */
  holder?: Incarnation;
  /** The demand the wave serves; an automatic trigger runs once per demand. */
  demandUrn?: string;
  /** Automatic triggers (demand approved, batch schedule) skip a demand already handled. */
  automatic: boolean;
  /**
   * The event that asked for this wave (a rerun after a policy relaxation): a wave runs once per
   * request, however often the event is delivered.
   */
  requestId?: string;
}

export type WaveBeginning =
  | { kind: "started"; waveUrn: string; sequence: number }
  /** Another wave of the case is running. */
  | { kind: "busy"; waveUrn: string }
  /** An automatic trigger for a demand, or a request, that a wave (or a policy violation) already handled. */
  | { kind: "handled"; outcome: string };

export type WaveOutcome =
  | { kind: "completed"; completed: WaveCompletedData; reviewItem?: ReviewItemRequestedData }
  /** No policy matched: the case went to manual review and no wave was written. */
  | { kind: "policy-violation" }
  /** The wave failed before it was written; another may start at once. */
  | { kind: "failed" };

export interface FinishWaveCommand {
  waveUrn: string;
  demandUrn?: string;
  outcome: WaveOutcome;
  correlationUrn: string;
}

export interface WaveLedger {
  tenant: string;
  caseUrn: string;
  /** Waves numbered so far. */
  sequence: number;
  running?: { waveUrn: string; leaseUntil: number; requestId?: string; holder?: Incarnation };
  latestWaveUrn?: string;
  /** Demand URN → the wave URN (or `policy-violation`) that handled it. */
  handledDemands: Record<string, string>;
  /** Request (event) id → the wave URN (or `policy-violation`) that handled it. */
  handledRequests?: Record<string, string>;
}

const LEDGER = "ledger";

/**
 * The allocation waves of one case (actor id = case id): it numbers them, lets one run at a time
 * (a lease, so a crashed wave does not block the case for ever), runs an automatic trigger once
 * per demand, and announces each completed wave and each override from its outbox, in the same
 * commit that records them. The wave itself is computed outside (searching vendors is no work for
 * an actor turn) and stored in the `waves` collection before `finish` is called.
 */
export class WaveActor {
  constructor(private readonly context: ActorContext) {}

  async begin(command: BeginWaveCommand): Promise<WaveBeginning> {
    const ledger = (await this.ledger()) ?? {
      tenant: command.tenant,
      caseUrn: command.caseUrn,
      sequence: 0,
      handledDemands: {},
    };
    if (ledger.caseUrn !== command.caseUrn || ledger.tenant !== command.tenant) {
      throw new DomainError("conflict", "wave-case-collision", "These waves belong to another case");
    }
    const now = this.context.clock.now();
    // A lease outlives a killed process by up to WAVE_LEASE_MS, longer than the event bus retries
    // the trigger; a restarted process knows its own earlier incarnations are dead.
    const { running: held } = ledger;
    const abandoned = held?.holder && command.holder && isPredecessor(held.holder, command.holder);
    if (held && held.leaseUntil > now && !abandoned) {
      return { kind: "busy", waveUrn: held.waveUrn };
    }
    const handled = command.demandUrn && ledger.handledDemands[command.demandUrn];
    if (command.automatic && handled) return { kind: "handled", outcome: handled };
    const requested = command.requestId && ledger.handledRequests?.[command.requestId];
    if (requested) return { kind: "handled", outcome: requested };
    const sequence = ledger.sequence + 1;
    const waveUrn = waveUrnFor(this.context.actorId, sequence);
    const running = {
      waveUrn,
      leaseUntil: now + WAVE_LEASE_MS,
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.holder ? { holder: command.holder } : {}),
    };
    this.save({ ...ledger, sequence, running });
    return { kind: "started", waveUrn, sequence };
  }

  async finish(command: FinishWaveCommand): Promise<void> {
    const ledger = await this.ledger();
    if (!ledger || ledger.running?.waveUrn !== command.waveUrn) return;
    const { running, ...rest } = ledger;
    const next: WaveLedger = { ...rest };
    const { outcome } = command;
    const handledBy = outcome.kind === "completed" ? command.waveUrn : "policy-violation";
    if (outcome.kind !== "failed" && command.demandUrn) {
      next.handledDemands = { ...ledger.handledDemands, [command.demandUrn]: handledBy };
    }
    if (outcome.kind !== "failed" && running?.requestId) {
      next.handledRequests = { ...ledger.handledRequests, [running.requestId]: handledBy };
    }
    if (outcome.kind === "completed") {
      next.latestWaveUrn = command.waveUrn;
      const event = {
        tenant: ledger.tenant,
        caseUrn: ledger.caseUrn,
        correlationUrn: command.correlationUrn,
      };
      this.context.emit({ ...event, type: "allocation.wave-completed", data: outcome.completed });
      if (outcome.reviewItem) {
        this.context.emit({ ...event, type: "review-item.requested", data: outcome.reviewItem });
      }
    }
    this.save(next);
  }

  async announceOverride(command: GroupOverriddenData & { correlationUrn: string }): Promise<void> {
    const ledger = await this.ledger();
    if (!ledger) throw new DomainError("not-found", "wave", `No wave ${command.waveUrn}`);
    const { correlationUrn, ...data } = command;
    this.context.emit({
      tenant: ledger.tenant,
      caseUrn: ledger.caseUrn,
      correlationUrn,
      type: "allocation.group-overridden",
      data,
    });
  }

  async get(): Promise<WaveLedger | undefined> {
    return this.ledger();
  }

  private save(ledger: WaveLedger): void {
    this.context.state.set(LEDGER, ledger);
  }

  private ledger(): Promise<WaveLedger | undefined> {
    return this.context.state.get<WaveLedger>(LEDGER);
  }
}
