import type { PolicyContextSnapshot } from "../../../actors/PolicyContextActor.js";
import { parseUrn } from "../../domain/urn.js";
import { ANY, type Policy } from "../../domain/policy/policy.js";
import { resolvePolicy } from "../../domain/policy/policy-resolution.js";
import type { Tier } from "../../domain/policy/tiers.js";
import type { DocumentCollection, DocumentStore, FindOptions, Page } from "../../runtime/document-store.js";
import { indexedCollection } from "../indexed-collection.js";
import { type RevisionedDoc, writeRevisioned } from "../revisioned-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export const POLICIES_COLLECTION = "policies";

/** One document per policy: its live record, every version, and the context it belongs to. */
export interface PolicyDocument extends Policy, RevisionedDoc {
  tenant: string;
  contextKey: string;
  versions: Policy[];
}

/**
 * The queryable copy of every PolicyContextActor (the `policies` collection): what the active
 * list, the resolve preview, the partner read and demand approval read. The actors stay the
 * authority; each change is copied here as soon as its turn returns.
 */
@injectable()
export class PolicyIndex {
  private readonly documents: DocumentCollection<PolicyDocument>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = indexedCollection(store, POLICIES_COLLECTION, [
      { keys: { tenant: 1, status: 1, contextKey: 1 } },
    ]);
  }

  async record(snapshot: PolicyContextSnapshot): Promise<void> {
    await writeRevisioned(
      this.documents,
      snapshot.policies.map(({ current, versions }) => ({
        ...current,
        _id: current.urn,
        tenant: snapshot.tenant,
        contextKey: snapshot.contextKey,
        revision: snapshot.revision,
        versions,
      })),
    );
  }

  /** The tenant's ACTIVE policies, by context; `airport` keeps that airport's and every-airport ones. */
  async activePage(tenant: string, airport: string | undefined, page: FindOptions): Promise<Page<Policy>> {
    const found = await this.documents.find(
      { tenant, status: "ACTIVE", ...(airport ? { "context.airport": { $in: [airport, ANY] } } : {}) },
      { ...page, sort: { contextKey: 1 } },
    );
    return { ...found, items: found.items.map(toPolicy) };
  }

  /** The most specific ACTIVE policy of the tenant for an airport and tier (spec 3.2), if any. */
  async resolve(tenant: string, query: { airport: string; tier?: Tier }): Promise<Policy | undefined> {
    const candidates = await this.documents.findAll({
      tenant,
      status: "ACTIVE",
      "context.airport": { $in: [query.airport, ANY] },
    });
    return resolvePolicy(candidates.map(toPolicy), { ...query, airline: airlineCodeOf(tenant) });
  }

  /**
   * The policies `resolve` answers for an airport and each of several tiers (undefined: the policy
   * for every tier), from one read of the airport's policies.
   */
  async resolveEach(
    tenant: string,
    airport: string,
    tiers: readonly (Tier | undefined)[],
  ): Promise<(Policy | undefined)[]> {
    const candidates = (
      await this.documents.findAll({ tenant, status: "ACTIVE", "context.airport": { $in: [airport, ANY] } })
    ).map(toPolicy);
    const airline = airlineCodeOf(tenant);
    return tiers.map((tier) => resolvePolicy(candidates, { airport, airline, ...(tier ? { tier } : {}) }));
  }

  /**
   * The tenant's policy as it was at `version` (the version a wave was allocated under); its
   * current rules when that version is not kept.
   */
  async versionOf(tenant: string, policyUrn: string, version: number | null): Promise<Policy | undefined> {
    const document = await this.documents.findOne({ _id: policyUrn, tenant });
    if (!document) return undefined;
    return document.versions.find((v) => v.version === version) ?? toPolicy(document);
  }
}

/** `urn:airline:ZX` → `ZX`: policy contexts name airlines by code (spec 2.4). */
export function airlineCodeOf(tenant: string): string {
  return parseUrn(tenant, "airline")?.id ?? tenant;
}

export function toPolicy({ _id, tenant, contextKey, revision, versions, ...policy }: PolicyDocument): Policy {
  return policy;
}
