import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { inject, injectable } from "tsyringe";
import {
  type DisruptionPrediction,
  flagsDisruption,
  predictDisruption,
  predictionRules,
} from "../../domain/disruption-prediction.js";
import { draftCaseFor } from "../../domain/draft-case.js";
import type { DisruptionDetectedData } from "../../domain/events/disruption.js";
import { type FlightState, flightStateSchema } from "../../domain/flight-state.js";
import { uuidFromParts } from "../../domain/uuid.js";
import type { Clock } from "../../runtime/clock.js";
import type { Doc, DocumentStore, FindOptions, Page } from "../../runtime/document-store.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { Directory } from "../directory.js";
import { PolicyIndex } from "../policies/policy-index.js";

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsPlugin as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

/** What was made of one flight-state message, kept once per airline and message id. */
export interface FlightStateAssessment {
  tenant: string;
  /** The flight's origin: where the disruption strands passengers, for airport-scoped reads. */
  airport: string;
  messageId: string;
  observedAt: string;
  receivedAt: string;
  flight: FlightState["flight"];
  probability: number;
  threshold: number;
  reasons: DisruptionPrediction["reasons"];
  detected: boolean;
  /** The `disruption.detected` event's URN, when the flight was flagged. */
  eventUrn?: string;
  draftCase?: DisruptionDetectedData["draftCase"];
}

export type FlightStateOutcome =
  | { kind: "invalid"; errors: string[] }
  | { kind: "duplicate"; assessment: FlightStateAssessment }
  | { kind: "assessed"; assessment: FlightStateAssessment };

export const FLIGHT_STATES_COLLECTION = "flight_states";

/**
 * Consumes the flight-state stream (spec 6.3): each message is checked against its schema, the
 * predictor weighs it, and the policy of the flight's origin airport gives the threshold; above
 * it, `disruption.detected` goes out on the airline's topic (spec 6.1), with a draft case when the
 * policy asks for one (spec 2.4 `prediction.draftCase`).
 *
 * Every assessment is kept (collection `flight_states`); the flagged ones are listed for operators.
 *
 * Idempotent per message: an airline's message id is assessed once, and the event's URN derives
 * from it, so a redelivery after a crash between the publish and the record republishes the same
 * event, which consumers deduplicate by URN.
 */
@injectable()
export class FlightStateIntake {
  private readonly validate = (() => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true });
    addFormats(ajv);
    return ajv.compile<FlightState>(flightStateSchema);
  })();

  constructor(
    @inject(TOKENS.bus) private readonly bus: EventBus,
    @inject(TOKENS.documents) private readonly store: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
    @inject(TOKENS.directory) private readonly directory: Directory,
  ) {}

  private get assessments() {
    return this.store.collection<FlightStateAssessment & Doc>(FLIGHT_STATES_COLLECTION);
  }

  /**
   * The airline's flagged flights, newest first, with their draft cases: where an operator finds
   * what to open (only an airport-scoped operator's airport when `airport` is given).
   */
  async detectedPage(
    tenant: string,
    airport: string | undefined,
    page: FindOptions,
  ): Promise<Page<FlightStateAssessment>> {
    const found = await this.assessments.find(
      { tenant, detected: true, ...(airport ? { airport } : {}) },
      { ...page, sort: { receivedAt: -1 } },
    );
    return { ...found, items: found.items.map(withoutId) };
  }

  async receive(message: unknown): Promise<FlightStateOutcome> {
    const state = structuredClone(message);
    if (!this.validate(state)) {
      return {
        kind: "invalid",
        errors: (this.validate.errors ?? []).map(
          (e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`,
        ),
      };
    }
    // Events travel on the airline's own topic (spec 5.4): only an airline of the directory has one.
    if (!(await this.directory.findOrganization(state.airline))) {
      return { kind: "invalid", errors: [`/airline ${state.airline} is not an airline of this service`] };
    }
    const id = `${state.airline}|${state.messageId}`;
    const seen = await this.assessments.get(id);
    if (seen) return { kind: "duplicate", assessment: withoutId(seen) };

    const policy = await this.policies.resolve(state.airline, { airport: state.flight.origin });
    const rules = predictionRules(policy);
    const prediction = predictDisruption(state);
    const detected = flagsDisruption(prediction, rules.threshold);
    const assessment: FlightStateAssessment = {
      tenant: state.airline,
      airport: state.flight.origin,
      messageId: state.messageId,
      observedAt: state.observedAt,
      receivedAt: new Date(this.clock.now()).toISOString(),
      flight: state.flight,
      probability: prediction.probability,
      threshold: rules.threshold,
      reasons: prediction.reasons,
      detected,
      ...(detected ? { eventUrn: uuidFromParts("urn:event:", "disruption.detected", id) } : {}),
      ...(detected && rules.draftCase ? { draftCase: draftCaseFor(state) } : {}),
    };
    if (assessment.eventUrn) await this.announce(assessment);
    await this.assessments.insertIfAbsent({ _id: id, ...assessment });
    return { kind: "assessed", assessment };
  }

  private announce(assessment: FlightStateAssessment): Promise<void> {
    const data: DisruptionDetectedData = {
      flight: assessment.flight,
      probability: assessment.probability,
      threshold: assessment.threshold,
      reason: assessment.reasons[0]?.cause ?? null,
      reasons: assessment.reasons,
      messageId: assessment.messageId,
      ...(assessment.draftCase ? { draftCase: assessment.draftCase } : {}),
    };
    return publishEvent(this.bus, {
      id: assessment.eventUrn!,
      type: "disruption.detected",
      tenant: assessment.tenant,
      occurredAt: assessment.receivedAt,
      // W3C trace id form (32 hex digits), the same for every delivery of the message.
      correlationUrn: `urn:trace:${uuidFromParts("", assessment.tenant, assessment.messageId).replaceAll("-", "")}`,
      data,
    });
  }
}

function withoutId({ _id, ...assessment }: FlightStateAssessment & Doc): FlightStateAssessment {
  return assessment;
}
