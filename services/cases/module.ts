import { CaseActor } from "../../actors/CaseActor.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import type { ServiceModule } from "../module.js";
import { caseProjectionSubscriptions } from "./case-subscriptions.js";
import { caseUseCases, registerCaseUseCases } from "./case-use-cases.js";
import { ShadowCases } from "../../src/app/metrics/shadow-cases.js";
import { drillRoutes } from "./drill-routes.js";
import { operatorCaseRoutes } from "./operator-routes.js";
import { partnerCaseRoutes } from "./partner-routes.js";

/** Disruption intake, the case lifecycle, the manifest and case reads. */
export const casesModule: ServiceModule = {
  name: "cases",
  actorTypes: [CaseActor],
  register: registerCaseUseCases,
  subscriptions: (context, tenants) => ({ workers: caseProjectionSubscriptions(tenants, context) }),
  routes: ({ container }) => {
    const cases = caseUseCases(container);
    return [
      ...operatorCaseRoutes(cases),
      ...partnerCaseRoutes(cases),
      ...drillRoutes(cases, container.resolve(ShadowCases)),
    ];
  },
  start: async ({ runtime }) => {
    const { documents } = runtime;
    await Promise.all([
      documents
        .collection(COLLECTIONS.cases)
        .ensureIndex({ keys: { tenant: 1, airport: 1, status: 1, openedAt: -1 } }),
      documents.collection(COLLECTIONS.cases).ensureIndex({ keys: { tenant: 1, passengerIds: 1 } }),
      documents.collection(COLLECTIONS.reviewItems).ensureIndex({ keys: { caseUrn: 1, createdAt: 1 } }),
      documents
        .collection(COLLECTIONS.reviewItems)
        .ensureIndex({ keys: { tenant: 1, state: 1, category: 1 } }),
      documents.collection(COLLECTIONS.disruptions).ensureIndex({ keys: { tenant: 1, receivedAt: 1 } }),
    ]);
  },
};
