import { useEffect, useState } from "preact/hooks";
import { api, segment } from "../api.js";
import { ActionOutcome } from "./fields.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useAction } from "./use-action.js";

/** An exception agent's proposal (the operator OpenAPI document's agent action). */
interface AgentAction {
  urn: string;
  tool: string;
  arguments: { hotelUrn?: string; fields?: Record<string, unknown>; into?: string[][] };
  reason: string;
  evidence: { source: string; detail: string }[];
  rank: number;
  explanation?: string | null;
  irreversible: boolean;
  state: "PROPOSED" | "APPROVED" | "REJECTED" | "EXECUTED" | "FAILED";
  approval: { by: string; reason: string | null } | null;
  rejection: { by: string; reason: string | null } | null;
  execution: { by: string; as: string; error: { code: string; message: string } | null } | null;
}

interface Triage {
  reviewItemUrn: string;
  classification: { cause: string; explanation: string };
  proposals: AgentAction[];
}

/** What a proposal would do, in a few words (also its Apply button's name). */
export function proposalSummary(action: AgentAction): string {
  const { hotelUrn, fields, into } = action.arguments;
  switch (action.tool) {
    case "proposeRebook":
      return `rebook on ${hotelUrn}`;
    case "relax":
      return `relax ${Object.entries(fields ?? {})
        .map(([field, value]) => `${field} to ${JSON.stringify(value)}`)
        .join(", ")}`;
    case "split":
      return `split into ${(into ?? []).map((part) => part.join(" + ")).join(" | ")}`;
    default:
      return action.tool;
  }
}

const OPEN_STATES = new Set(["PROPOSED", "APPROVED"]);

/**
 * The exception agent's proposals for a review item (POST /v1/agent/triage, spec 4.1, 4.2) and the
 * one click that applies one: approve it, then execute it, which runs the review queue's own action
 * (rebook, relax, split) as the approving operator, so the item's audit trail reads as theirs.
 */
export function AgentProposals({ itemUrn, onApplied }: { itemUrn: string; onApplied: () => void }) {
  const [triage, setTriage] = useState<Triage | null>(null);
  const [loadProblem, setLoadProblem] = useState<unknown>(null);
  const state = useAction();

  const load = () =>
    api<{ triages: Triage[] }>("POST", "/v1/agent/triage", { reviewItemUrn: itemUrn })
      .then((answer) => setTriage(answer.triages[0] ?? null))
      .catch((error: unknown) => setLoadProblem(error));
  useEffect(() => {
    load();
  }, [itemUrn]);

  const apply = async (action: AgentAction) => {
    const executed = await state.run(`Apply proposal ${action.rank}`, async () => {
      if (action.state === "PROPOSED") {
        await api("POST", `/v1/agent/${segment(action.urn)}/approve`, { reason: "Applied from the console" });
      }
      const after = await api<AgentAction>("POST", `/v1/agent/${segment(action.urn)}/execute`);
      // The queue's refusal leaves the action FAILED with it; show it as the refusal it is.
      if (after.state === "FAILED" && after.execution?.error) {
        throw new Error(
          `The review queue refused: ${after.execution.error.code}: ${after.execution.error.message}`,
        );
      }
      return after;
    });
    await load();
    if (executed) onApplied();
  };
  const reject = async (action: AgentAction) => {
    await state.run(`Reject proposal ${action.rank}`, () =>
      api("POST", `/v1/agent/${segment(action.urn)}/reject`, { reason: "Rejected from the console" }),
    );
    await load();
  };

  if (loadProblem !== null) return <ProblemMessage error={loadProblem} />;
  if (!triage) return <p role="status">Asking the exception agent…</p>;
  return (
    <section class="agent-proposals" aria-label="The exception agent's proposals">
      <h3>The exception agent's proposals</h3>
      <p>
        Cause: <strong>{triage.classification.cause}</strong>. {triage.classification.explanation}
      </p>
      {triage.proposals.length === 0 && <p>No proposal.</p>}
      <ol>
        {triage.proposals.map((action) => (
          <li key={action.urn} class="proposal">
            <p>
              <strong>{proposalSummary(action)}</strong> <span class="badge">{action.state}</span>
              {action.irreversible && <span class="badge"> irreversible: needs approval</span>}
            </p>
            <p>{action.reason}</p>
            {action.explanation && <p>{action.explanation}</p>}
            <ul class="evidence">
              {action.evidence.map((e) => (
                <li key={e.detail}>
                  {e.source}: {e.detail}
                </li>
              ))}
            </ul>
            {action.execution?.error && (
              <p class="problem">
                Failed: {action.execution.error.code}: {action.execution.error.message}
              </p>
            )}
            {OPEN_STATES.has(action.state) && (
              <div class="buttons">
                <button
                  type="button"
                  disabled={state.pending !== null}
                  aria-label={`Apply proposal ${action.rank}: ${proposalSummary(action)}`}
                  onClick={() => apply(action)}
                >
                  Apply
                </button>
                <button
                  type="button"
                  disabled={state.pending !== null}
                  aria-label={`Reject proposal ${action.rank}`}
                  onClick={() => reject(action)}
                >
                  Reject
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <ActionOutcome state={state} />
    </section>
  );
}
