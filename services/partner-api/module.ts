import { CaseServiceReads } from "../../src/app/case-services/case-services.js";
import { PartnerMetrics } from "../../src/app/metrics/partner-metrics.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { caseServicesRoute } from "./case-services-route.js";
import { metricsRoute } from "./metrics-route.js";

/**
 * Partner reads that gather what several areas keep (spec 4.3): a case's services (hotels from
 * booking, with transport and wallet beside them) and the certified KPIs (cases, notifications,
 * reservations, waves, sub-cases, review items, webhook deliveries). They sit above those areas,
 * so none of them needs to know the others.
 */
export const partnerApiModule: ServiceModule = {
  name: "partner-api",
  register: (container) => registerSingletons(container, [CaseServiceReads, PartnerMetrics]),
  routes: ({ container }) => [
    caseServicesRoute(container.resolve(CaseServiceReads)),
    metricsRoute(container.resolve(PartnerMetrics)),
  ],
};
