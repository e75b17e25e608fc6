import { policyAddress, policyUrn } from "../src/domain/policy/policy-addresses.js";
import { DomainError } from "../src/domain/domain-error.js";
import { applyDefaults, createPolicy, type Policy, type PolicyInput } from "../src/domain/policy/policy.js";
import { policyContextKey } from "../src/domain/policy/policy-context.js";
import { activate, deactivate, type PolicyChange } from "../src/domain/policy/policy-lifecycle.js";
import { type PolicyPatch, patchPolicy } from "../src/domain/policy/policy-patch.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** One policy with every version it has had, oldest first; `current` is the live record. */
export interface PolicyHistory {
  current: Policy;
  versions: Policy[];
}

/** Every policy of the context after a turn, for the query index (see `writeRevisioned`). */
export interface PolicyContextSnapshot {
  tenant: string;
  contextKey: string;
  /** Bumped by every turn that changes something. */
  revision: number;
  policies: PolicyHistory[];
}

export interface PolicyTurn extends PolicyChange {
  /** Policies of the same context an activation moved from ACTIVE to ARCHIVED. */
  archived: PolicyChange[];
  /** False when the request asked for the state the policy was already in. */
  changed: boolean;
  snapshot: PolicyContextSnapshot;
}

export interface CreatePolicyCommand {
  tenant: string;
  input: PolicyInput;
}

export interface PatchPolicyCommand {
  urn: string;
  patch: PolicyPatch;
}

export interface ActivatePolicyCommand {
  urn: string;
  /** Restore the rules of this earlier version (as a new version) before activating. */
  version?: number;
}

interface ContextRecord {
  tenant: string;
  contextKey: string;
  revision: number;
  /** Number of the last policy created here; policies are never deleted. */
  lastNumber: number;
}

const CONTEXT = "context";
const POLICIES = "policies";

/**
 * Every policy of one context (spec 3.2: same airport, airline and tier set), keyed by
 * `policyContextId`. One turn at a time makes "activate this one, archive the one active before"
 * atomic: twenty concurrent activations in one context are twenty turns in a row and leave exactly
 * one policy ACTIVE. All versions are kept, so an archived policy or an earlier version can be
 * brought back.
 *
 * The tier set is part of the context, so a patch may not change it: a policy for other tiers is
 * a new policy (the same reason the schema gives for not patching airport and airline).
 */
export class PolicyContextActor {
  constructor(private readonly context: ActorContext) {}

  async create(command: CreatePolicyCommand): Promise<PolicyTurn> {
    const contextKey = policyContextKey(applyDefaults(command.input));
    const record = (await this.record()) ?? {
      tenant: command.tenant,
      contextKey,
      revision: 0,
      lastNumber: 0,
    };
    if (record.tenant !== command.tenant || record.contextKey !== contextKey) {
      throw new DomainError("conflict", "policy-context-collision", "This policy context belongs elsewhere");
    }
    const number = record.lastNumber + 1;
    const policy = createPolicy(command.input, policyUrn(this.context.actorId, number), this.now());
    const policies = await this.policies();
    policies[number] = { current: policy, versions: [policy] };
    return this.commit({ ...record, lastNumber: number }, policies, {
      before: policy,
      after: policy,
      archived: [],
    });
  }

  async patch(command: PatchPolicyCommand): Promise<PolicyTurn> {
    const { record, policies, history } = await this.find(command.urn);
    if (command.patch.tiers) {
      const contextKey = policyContextKey({ context: history.current.context, tiers: command.patch.tiers });
      if (contextKey !== record.contextKey) {
        throw new DomainError(
          "conflict",
          "policy-context-fixed",
          "The tier set is part of the policy's context; create a new policy for other tiers",
          { tiers: history.current.tiers },
        );
      }
    }
    const { before, after } = patchPolicy(history.current, command.patch, this.now());
    policies[numberOf(command.urn)] = { current: after, versions: [...history.versions, after] };
    return this.commit(record, policies, { before, after, archived: [] });
  }

  async activate(command: ActivatePolicyCommand): Promise<PolicyTurn> {
    const { record, policies, history } = await this.find(command.urn);
    const restored = this.restore(history, command.version);
    const active = Object.values(policies).map((p) => p.current);
    const activation = activate(restored ?? history.current, active, this.now());
    if (!activation.changed && !restored) return this.unchanged(record, policies, history.current);
    const after = activation.activated.after;
    policies[numberOf(command.urn)] = {
      current: after,
      versions: restored ? [...history.versions, after] : history.versions,
    };
    for (const { after: archived } of activation.archived) {
      const other = policies[numberOf(archived.urn)]!;
      policies[numberOf(archived.urn)] = { ...other, current: archived };
    }
    return this.commit(record, policies, {
      before: history.current,
      after,
      archived: activation.archived,
    });
  }

  async deactivate(command: { urn: string }): Promise<PolicyTurn> {
    const { record, policies, history } = await this.find(command.urn);
    const change = deactivate(history.current, this.now());
    if (!change.changed) return this.unchanged(record, policies, history.current);
    policies[numberOf(command.urn)] = { ...history, current: change.after };
    return this.commit(record, policies, { before: change.before, after: change.after, archived: [] });
  }

  /** The policy with its history and tenant, or undefined when this context has no such policy. */
  async get(command: { urn: string }): Promise<(PolicyHistory & { tenant: string }) | undefined> {
    const record = await this.record();
    const history = (await this.policies())[numberOf(command.urn)];
    return record && history && { tenant: record.tenant, ...history };
  }

  /** The whole context, for rebuilding the query index. */
  async snapshot(): Promise<PolicyContextSnapshot | undefined> {
    const record = await this.record();
    return record && snapshotOf(record, await this.policies());
  }

  /** The rules of an earlier version as the next version, keeping the policy's status. */
  private restore(history: PolicyHistory, version: number | undefined): Policy | undefined {
    if (version === undefined || version === history.current.version) return undefined;
    const earlier = history.versions.find((v) => v.version === version);
    if (!earlier) {
      throw new DomainError(
        "not-found",
        "policy-version",
        `Policy ${history.current.urn} has no version ${version}`,
        {
          versions: history.versions.map((v) => v.version),
        },
      );
    }
    const { current } = history;
    return {
      ...earlier,
      status: current.status,
      version: current.version + 1,
      createdAt: current.createdAt,
      updatedAt: this.now().toISOString(),
    };
  }

  private async find(urn: string) {
    const record = await this.record();
    const policies = await this.policies();
    const history = policies[numberOf(urn)];
    if (!record || !history) throw new DomainError("not-found", "policy", `No policy ${urn}`);
    return { record, policies, history };
  }

  private commit(
    record: ContextRecord,
    policies: Record<number, PolicyHistory>,
    change: Omit<PolicyTurn, "changed" | "snapshot">,
  ): PolicyTurn {
    const next = { ...record, revision: record.revision + 1 };
    this.context.state.set(CONTEXT, next);
    this.context.state.set(POLICIES, policies);
    return { ...change, changed: true, snapshot: snapshotOf(next, policies) };
  }

  private unchanged(
    record: ContextRecord,
    policies: Record<number, PolicyHistory>,
    policy: Policy,
  ): PolicyTurn {
    return {
      before: policy,
      after: policy,
      archived: [],
      changed: false,
      snapshot: snapshotOf(record, policies),
    };
  }

  private record(): Promise<ContextRecord | undefined> {
    return this.context.state.get<ContextRecord>(CONTEXT);
  }

  private async policies(): Promise<Record<number, PolicyHistory>> {
    return (await this.context.state.get<Record<number, PolicyHistory>>(POLICIES)) ?? {};
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

function numberOf(urn: string): number {
  return policyAddress(urn)?.number ?? 0;
}

function snapshotOf(record: ContextRecord, policies: Record<number, PolicyHistory>): PolicyContextSnapshot {
  return {
    tenant: record.tenant,
    contextKey: record.contextKey,
    revision: record.revision,
    policies: Object.values(policies),
  };
}
