import { randomBytes } from "node:crypto";
import { inject, injectable } from "tsyringe";
import type { OpenCaseResult } from "../../../actors/CaseActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { AuditLog } from "../audit-log.js";
import type { Directory } from "../directory.js";
import type { PartnerPrincipal } from "../principals.js";
import { type DisruptionPush, DisruptionIntake } from "./intake.js";

/** The scope a partner push needs (spec 4.3, POST /partner/v1/disruptions). */
const PUBLISH_SCOPE = "disruptions.events.publish";

/**
 * Disruption pushes an airline delivers over its own broker (an input binding) rather than by
 * POST /partner/v1/disruptions. They take the partner push's use case under the identity of the
 * integration's partner registration: the same airline check, the same idempotency on
 * externalEventId (spec 4.3), and an audit entry per push as the HTTP layer writes for the route.
 */
@injectable()
export class IntegrationPushes {
  constructor(
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(DisruptionIntake) private readonly intake: DisruptionIntake,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /** The registration as a partner principal; it must still exist and hold the publish scope. */
  async integration(clientId: string): Promise<PartnerPrincipal> {
    const registration = await this.directory.findPartnerRegistration(clientId);
    if (!registration) {
      throw new DomainError("forbidden", "unknown-integration", `No partner registration "${clientId}"`);
    }
    if (!registration.scopes.includes(PUBLISH_SCOPE)) {
      throw new DomainError("forbidden", "insufficient-scope", `"${clientId}" lacks ${PUBLISH_SCOPE}`);
    }
    return {
      surface: "partner",
      actorUrn: registration.partnerUrn,
      clientId,
      tenant: registration.airlineUrn,
      scopes: new Set(registration.scopes),
      tier: registration.tier,
      // A binding holds no token: the registration is looked up again for every message.
      expiresAt: Number.POSITIVE_INFINITY,
    };
  }

  async receive(clientId: string, push: DisruptionPush): Promise<OpenCaseResult> {
    const caller = await this.integration(clientId);
    const correlationUrn = `urn:trace:${randomBytes(16).toString("hex")}`;
    const result = await this.intake.push(caller, push, correlationUrn);
    const caseUrn = result.snapshot.case.urn;
    await this.audit.append({
      tenant: caller.tenant,
      actorUrn: caller.actorUrn,
      action: "pushDisruption",
      entityUrn: caseUrn,
      caseUrn,
      correlationUrn,
      payload: push,
      outcome: { status: 202 },
    });
    return result;
  }
}
