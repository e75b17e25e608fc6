import { useState } from "preact/hooks";
import { ApiProblem } from "../api.js";
import type { ManifestEntry } from "../case-types.js";
import { lockSubCase, unlockSubCase } from "../locks.js";
import { can, useSession } from "../session.js";
import { ProblemMessage } from "./problem-message.js";

/**
 * What an operator can do with one sub-case from its row: lock and unlock (spec 4.1, AIRPORT_OPERATOR+).
 * A 409 `sub-case-locked` names the holder and how long the lock still lasts (spec 7).
 */
export function SubCaseActions({ entry, onChanged }: { entry: ManifestEntry; onChanged: () => void }) {
  const operator = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  if (!can(operator, "AIRPORT_OPERATOR")) return null;
  const mine = entry.lockedBy !== null && entry.lockedBy === operator?.operatorUrn;
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      onChanged();
    } catch (e) {
      setError(e);
      if (e instanceof ApiProblem && e.status === 409) onChanged();
    } finally {
      setBusy(false);
    }
  };
  const label = `group ${entry.groupId}`;
  return (
    <div class="row-actions">
      {mine ? (
        <button type="button" disabled={busy} onClick={() => run(() => unlockSubCase(entry.subCaseUrn))}>
          Unlock <span class="visually-hidden">{label}</span>
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => run(() => lockSubCase(entry.subCaseUrn))}>
          Lock <span class="visually-hidden">{label}</span>
        </button>
      )}
      {error ? <LockProblem error={error} /> : null}
    </div>
  );
}

function LockProblem({ error }: { error: unknown }) {
  if (error instanceof ApiProblem && error.code === "sub-case-locked") {
    const { lockedBy, expiresInSeconds } = error.body as { lockedBy?: string; expiresInSeconds?: number };
    return (
      <p class="problem" role="alert">
        Locked by {lockedBy ?? "another operator"}
        {typeof expiresInSeconds === "number" ? ` for ${expiresInSeconds} more seconds` : ""}.
      </p>
    );
  }
  return <ProblemMessage error={error} />;
}
