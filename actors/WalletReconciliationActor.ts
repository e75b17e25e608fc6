import { randomBytes } from "node:crypto";
import { WALLET_EVENT } from "../src/domain/events/wallet.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

export interface WalletReconciliationState {
  tenant: string;
  intervalMs: number;
  lastReconciledAt: string | null;
}

const STATE = "wallet-reconciliation";
const RECONCILE = "reconcile";

/**
 * When a tenant's wallet cards are reconciled with the issuer (spec 6.3, 8.2: every 24 hours per
 * tenant). A repeating reminder emits `wallet.reconciliation-due`; the comparison itself (issuer
 * calls) runs in the wallet's event handler, which records here when it finished.
 */
export class WalletReconciliationActor {
  constructor(private readonly context: ActorContext) {}

  /** Starts the schedule, or changes its interval; the same interval again changes nothing. */
  async schedule(command: { tenant: string; intervalMs: number }): Promise<WalletReconciliationState> {
    const current = await this.get();
    if (current && current.intervalMs === command.intervalMs) return current;
    const next: WalletReconciliationState = {
      tenant: command.tenant,
      intervalMs: command.intervalMs,
      lastReconciledAt: current?.lastReconciledAt ?? null,
    };
    this.context.state.set(STATE, next);
    await this.context.reminders.set(RECONCILE, {
      dueInMs: command.intervalMs,
      periodMs: command.intervalMs,
    });
    return next;
  }

  async reconciled(): Promise<WalletReconciliationState | undefined> {
    const state = await this.get();
    if (!state) return undefined;
    const next = { ...state, lastReconciledAt: new Date(this.context.clock.now()).toISOString() };
    this.context.state.set(STATE, next);
    return next;
  }

  async get(): Promise<WalletReconciliationState | undefined> {
    return this.context.state.get<WalletReconciliationState>(STATE);
  }

  async receiveReminder(name: string): Promise<void> {
    const state = await this.get();
    if (name !== RECONCILE || !state) return;
    this.context.emit({
      type: WALLET_EVENT.reconciliationDue,
      tenant: state.tenant,
      correlationUrn: `urn:trace:${randomBytes(16).toString("hex")}`,
      data: { tenant: state.tenant },
    });
  }
}

/** One actor per tenant; the id keeps the airline readable and free of URN colons. */
export function walletReconciliationActorId(tenant: string): string {
  return tenant.replaceAll(":", ".");
}
