import { CaseServiceReads } from "../../src/app/case-services/case-services.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { caseServicesRoute } from "./case-services-route.js";

/**
 * Partner reads that gather what several areas keep (spec 4.3): a case's services (hotels from
 * booking, with transport and wallet beside them). They sit above those areas, so none of them
 * needs to know the others.
 */
export const partnerApiModule: ServiceModule = {
  name: "partner-api",
  register: (container) => registerSingletons(container, [CaseServiceReads]),
  routes: ({ container }) => [caseServicesRoute(container.resolve(CaseServiceReads))],
};
