import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { useState } from "preact/hooks";
import { api, segment } from "../api.js";
import { DataTable } from "../components/data-table.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { formatTime } from "../format.js";

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt?: string;
}

/**
 * The signed-in operator's second factors (spec 5.1): passkeys (WebAuthn) to enrol, list and
 * remove, through GET/POST /v1/me/passkeys and DELETE /v1/me/passkeys/{id}. The registration
 * ceremony runs in this browser with @simplewebauthn/browser; the sign-in page then offers the
 * passkey as the second factor.
 */
export function SecurityPage() {
  const passkeys = useResource<{ items: Passkey[] }>("/v1/me/passkeys");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [status, setStatus] = useState("");
  const supported = browserSupportsWebAuthn();

  async function enrol(event: Event) {
    event.preventDefault();
    const chosen = name.trim() || "Passkey";
    setBusy(true);
    setError(undefined);
    setStatus("Follow your browser's prompt to create the passkey…");
    try {
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
        "POST",
        "/v1/me/passkeys/registration-options",
      );
      const response = await startRegistration({ optionsJSON });
      await api("POST", "/v1/me/passkeys", { name: chosen, response });
      setStatus(`Passkey "${chosen}" enrolled: the sign-in page will offer it as your second factor.`);
      setName("");
      passkeys.reload();
    } catch (failure) {
      setStatus("");
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function remove(passkey: Passkey) {
    setError(undefined);
    try {
      await api("DELETE", `/v1/me/passkeys/${segment(passkey.id)}`);
      setStatus(`Passkey "${passkey.name}" removed.`);
      passkeys.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <>
      <h1>Security</h1>
      <p>
        A passkey confirms your sign-in with this device's screen lock or a security key, instead of a
        one-time code. ADMIN, OPS_SUPERVISOR and FINANCE_AUDIT always confirm with a second factor; airport
        operators when their airline asks or the sign-in looks unusual.
      </p>
      <h2>Passkeys</h2>
      <ProblemMessage error={passkeys.error} />
      <DataTable
        rows={passkeys.data?.items}
        rowKey={(p) => p.id}
        caption="Your passkeys"
        empty="No passkey enrolled yet."
        columns={[
          { header: "Name", cell: (p) => p.name, rowHeader: true },
          { header: "Enrolled", cell: (p) => formatTime(p.createdAt) },
          { header: "Last used", cell: (p) => (p.lastUsedAt ? formatTime(p.lastUsedAt) : "never") },
          {
            header: "Action",
            cell: (p) => (
              <button type="button" onClick={() => remove(p)}>
                Remove {p.name}
              </button>
            ),
          },
        ]}
      />
      <h2>Enrol a passkey</h2>
      {supported ? (
        <form onSubmit={enrol}>
          <label>
            Passkey name
            <input
              value={name}
              maxLength={64}
              placeholder="e.g. Work laptop"
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            Enrol a passkey
          </button>
        </form>
      ) : (
        <p>This browser cannot create passkeys.</p>
      )}
      <p role="status">{status}</p>
      <ProblemMessage error={error} />
    </>
  );
}
