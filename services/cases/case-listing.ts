/**
 * Listing the airline's cases is one read for operators (spec 4.1) and partners (4.3): the same
 * filters, the same newest-first order, the same page. Each surface adds its own path, access and
 * operation id, so the two lists cannot drift apart.
 */
import type { Principal } from "../../src/app/principals.js";
import type { Infer } from "../../src/http/json-schema.js";
import { pageAnswer } from "../../src/http/pagination.js";
import { caseListQuery, casePageSchema } from "./case-schemas.js";
import type { CaseUseCases } from "./case-use-cases.js";

export function caseListing(cases: CaseUseCases) {
  return {
    summary: "Cases of the airline, newest first",
    query: caseListQuery,
    responses: { 200: { description: "A page of cases", schema: casePageSchema } },
    handler: ({ principal, query }: { principal: Principal; query: Infer<typeof caseListQuery> }) =>
      pageAnswer(query, (request) =>
        cases.reads.list(
          principal,
          {
            status: query.status,
            priority: query.priority,
            airport: query.airport,
            from: query.from,
            to: query.to,
          },
          request,
        ),
      ),
  } as const;
}
