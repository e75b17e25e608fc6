import { DomainError } from "../../domain/domain-error.js";
import { CaseActor, type OpenCaseArgs, type OpenCaseResult } from "../../../actors/CaseActor.js";
import {
  caseIdFor,
  type Flight,
  type NextFlight,
  type Passenger,
  type PassengerGroup,
} from "../../domain/case.js";
import { defaultGroups, type ManifestPassenger } from "../../domain/passenger-groups.js";
import type { OperatorPrincipal, PartnerPrincipal } from "../principals.js";
import { assertAirport } from "../authorization.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { CaseChanges } from "./case-changes.js";
import { nextPassengerId } from "../../domain/case-manifest.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** The manual declaration (spec 2.1, POST /v1/cases and POST /cases). */
export interface CaseDeclaration {
  externalEventId: string;
  flight: Flight;
  nextFlight?: NextFlight;
  passengerGroups?: PassengerGroup[];
}

export interface PushedPassenger {
  pnr: string;
  lastName: string;
  firstName?: string;
  cabinClass?: string;
  loyaltyTier?: string;
  contact?: { email?: string; phone?: string; language?: string };
}

/** The disruption push (spec 4.3, POST /partner/v1/disruptions). */
export interface DisruptionPush {
  externalEventId: string;
  airlineUrn: string;
  flight: {
    iataDesignator: string;
    originAirport: string;
    destinationAirport: string;
    scheduledDeparture: string;
  };
  disruption: { type: string; reason: string; decidedAt: string };
  passengers: PushedPassenger[];
  nextFlight?: { iataDesignator: string; scheduledDeparture: string };
}

/**
 * Disruption intake: a case per disruption, idempotent per tenant on externalEventId. Every replay,
 * however many arrive at once, reaches the one case actor keyed by `caseIdFor(tenant,
 * externalEventId)`, whose mailbox serializes them: the first opens the case and emits case.opened,
 * the others get the same case back (`created: false`).
 */
@injectable()
export class DisruptionIntake {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
  ) {}

  async declare(
    caller: OperatorPrincipal,
    declaration: CaseDeclaration,
    correlationUrn: string,
  ): Promise<OpenCaseResult> {
    assertAirport(caller, declaration.flight.origin);
    return this.open(
      {
        tenant: caller.tenant,
        externalEventId: declaration.externalEventId,
        flight: declaration.flight,
        ...(declaration.nextFlight ? { nextFlight: declaration.nextFlight } : {}),
        passengerGroups: declaration.passengerGroups ?? [],
        openedBy: caller.actorUrn,
        correlationUrn,
        intake: { source: "operator" },
      },
      caller,
    );
  }

  /** Spec 5.4: a partner pushes for the airline of its registration only. */
  async push(
    caller: PartnerPrincipal,
    push: DisruptionPush,
    correlationUrn: string,
  ): Promise<OpenCaseResult> {
    if (push.airlineUrn !== caller.tenant) {
      throw new DomainError(
        "forbidden",
        "tenant-mismatch",
        "airlineUrn is not the airline of this registration",
      );
    }
    return this.open(
      {
        tenant: caller.tenant,
        externalEventId: push.externalEventId,
        flight: {
          number: push.flight.iataDesignator,
          origin: push.flight.originAirport,
          destination: push.flight.destinationAirport,
          scheduledDeparture: push.flight.scheduledDeparture,
          status: push.disruption.type,
        },
        ...(push.nextFlight
          ? {
              nextFlight: {
                number: push.nextFlight.iataDesignator,
                scheduledDeparture: push.nextFlight.scheduledDeparture,
              },
            }
          : {}),
        passengerGroups: defaultGroups(manifestOf(push.passengers, new Set())),
        openedBy: caller.actorUrn,
        correlationUrn,
        intake: { source: "partner", disruption: push.disruption },
      },
      caller,
    );
  }

  private async open(
    command: OpenCaseArgs,
    caller: OperatorPrincipal | PartnerPrincipal,
  ): Promise<OpenCaseResult> {
    const result = await this.actors.invoke(
      CaseActor,
      caseIdFor(command.tenant, command.externalEventId),
      "open",
      command,
    );
    await this.changes.record(result, { caller, correlationUrn: command.correlationUrn });
    return result;
  }
}

/**
 * Pushed passengers carry no id (spec 4.3): each gets `<PNR>-<n>` in the order sent, n counting
 * the PNR's passengers and skipping ids in `taken`. Groups default to one per PNR.
 */
export function manifestOf(passengers: readonly PushedPassenger[], taken: Set<string>): ManifestPassenger[] {
  return passengers.map((pushed) => {
    const pnr = pushed.pnr.trim().toUpperCase();
    const passenger: Passenger = {
      id: nextPassengerId(pnr, taken),
      ...(pushed.firstName ? { firstName: pushed.firstName } : {}),
      lastName: pushed.lastName,
      ...(pushed.cabinClass ? { cabinClass: pushed.cabinClass } : {}),
      ...(pushed.loyaltyTier ? { loyaltyTier: pushed.loyaltyTier } : {}),
      ...(pushed.contact ? { contact: pushed.contact } : {}),
    };
    return { pnr, passenger };
  });
}
