import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { AuditLog } from "../../src/app/audit-log.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import { loadConfig } from "../../src/config.js";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { PassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/runtime.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { caseUseCases } from "../../services/cases/case-use-cases.js";
import { casesModule } from "../../services/cases/module.js";
import type { ModuleContext } from "../../services/module.js";
import { moduleContainer } from "../support/container.js";
import { passengerIdentity } from "./passenger-identity-fixture.js";
import { operatorPrincipal } from "../support/principals.js";

const ZX = "urn:airline:ZX";
const runtimes: Runtime[] = [];

afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
});

function operator(role: OperatorPrincipal["role"], id: string): OperatorPrincipal {
  return operatorPrincipal(role, { actorUrn: `urn:user:${id}` });
}

/** The cases module over the embedded runtime, with a passenger identity whose captcha is cheap to solve. */
async function platform() {
  const clock = new ManualClock(Date.now());
  const documents = new MemoryDocumentStore();
  const counters = new MemoryCounterStore(clock);
  let context: ModuleContext | undefined;
  const runtime = createEmbeddedRuntime({
    clock,
    state: new MemoryStateStore(),
    documents,
    counters,
    shutdownTimeoutMs: 1_000,
    actorTypes: casesModule.actorTypes ?? [],
    workflows: new WorkflowRegistry(),
    subscriptions:
      casesModule.subscriptions?.(() => context!, ["urn:airline:ZX", "urn:airline:VQ"]).workers ?? [],
  });
  runtimes.push(runtime);
  const passengers = await passengerIdentity({ counters, documents, clock });
  const audit = new AuditLog(new DocumentAuditTrail(documents), clock);
  const directory = createDemoDirectory(clock);
  const container = moduleContainer({
    actors: runtime.actors,
    documents,
    clock,
    audit,
    directory,
    counters,
    passengerLogins: passengers.directory,
    caseRevocations: passengers.revocations,
  });
  const started: ModuleContext = {
    container,
    config: loadConfig({}),
    runtime,
    logger: pino({ level: "silent" }),
    audit,
    directory,
    passengers,
  };
  context = started;
  await runtime.start();
  await casesModule.start?.(started);
  return { runtime, passengers, cases: caseUseCases(container), documents, clock };
}

async function logIn(passengers: PassengerIdentity, pnr: string, lastName: string) {
  const challenge = await passengers.captcha.issueChallenge();
  const solution = await solveChallenge({ challenge, deriveKey });
  const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  return passengers.login.login({ tenant: ZX, pnr, lastName, captcha, ip: "127.0.0.1" });
}

const declaration = {
  externalEventId: "evt-revocation",
  flight: { number: "ZX100", origin: "JFK", destination: "LHR", scheduledDeparture: "2026-11-21T22:00:00Z" },
  passengerGroups: [
    {
      id: "ABC123",
      pnr: "ABC123",
      passengers: [{ id: "p1", lastName: "Rivera", tier: "ECONOMY", contact: { email: "a@example.com" } }],
    },
  ],
};

/** A supervisor declares the disruption above; the URN of the case it opens. */
async function declared(cases: ReturnType<typeof caseUseCases>): Promise<string> {
  const { snapshot } = await cases.intake.declare(
    operator("OPS_SUPERVISOR", "sup"),
    declaration,
    "urn:trace:1",
  );
  return snapshot.case.urn;
}

describe("closing a case revokes its passengers' access (spec 3.3, 5.2)", () => {
  it("refuses the token of a closed case and a new login, and admits a new login after reopening", async () => {
    const { passengers, cases, clock } = await platform();
    const caseUrn = await declared(cases);

    const session = await logIn(passengers, "abc123", "RIVERA");
    expect(session.caseUrn).toBe(caseUrn);
    await expect(passengers.sessions.verify(session.sessionToken)).resolves.toMatchObject({
      caseUrn,
      groupId: "ABC123",
    });

    await cases.status.close(
      operator("AIRPORT_OPERATOR", "ops"),
      caseUrn,
      "every passenger flew",
      "urn:trace:2",
    );
    await expect(passengers.sessions.verify(session.sessionToken)).rejects.toMatchObject({
      status: 403,
      code: "case-closed",
    });
    await expect(logIn(passengers, "ABC123", "Rivera")).rejects.toMatchObject({
      status: 403,
      code: "case-closed",
    });

    await cases.status.reopen(operator("ADMIN", "admin"), caseUrn, "closed too early", "urn:trace:3");
    await expect(passengers.sessions.verify(session.sessionToken)).rejects.toMatchObject({ status: 401 });
    // Token times are whole seconds: one issued in the second of the close counts as issued before it.
    await clock.advance(1_000);
    const again = await logIn(passengers, "ABC123", "Rivera");
    await expect(passengers.sessions.verify(again.sessionToken)).resolves.toMatchObject({ caseUrn });
  });

  it("projects a change from its event alone, when the request that made it did not project it", async () => {
    const { runtime, passengers, cases, documents } = await platform();
    const caseUrn = await declared(cases);
    const session = await logIn(passengers, "ABC123", "Rivera");

    // Straight to the actor, as a process that died right after the turn would have left it.
    await runtime.actors.invoke(CaseActor, caseRefOf(caseUrn).id, "recordReservationStatus", {
      reservationUrn: "urn:reservation:r1",
      groupId: "ABC123",
      status: "CHECKED_OUT",
      correlationUrn: "urn:trace:4",
    });
    const index = documents.collection<any>(COLLECTIONS.cases);
    await expect.poll(async () => (await index.get(caseUrn))?.status).toBe("CLOSED");
    await expect(passengers.sessions.verify(session.sessionToken)).rejects.toMatchObject({
      code: "case-closed",
    });
    expect(await passengers.directory.findGroupByPnr(ZX, "ABC123", "Rivera")).toMatchObject({
      caseStatus: "CLOSED",
    });
  });
});
