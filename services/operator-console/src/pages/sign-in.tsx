import { useState } from "preact/hooks";
import { startLogin } from "../identity.js";
import { ProblemMessage } from "../components/problem-message.js";

/**
 * Shown while nobody is signed in: one button to the identity provider's login page (authorization
 * code with PKCE; no password ever reaches the console), and why the last session ended if it did.
 */
export function SignInPage({ returnTo, notice }: { returnTo: string; notice?: string | undefined }) {
  const [error, setError] = useState<unknown>();
  const [leaving, setLeaving] = useState(false);
  const signIn = async () => {
    setLeaving(true);
    try {
      await startLogin(returnTo);
    } catch (e) {
      setError(e);
      setLeaving(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Operations console</h1>
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <p>
        Sign in with your airline account. Supervisors, auditors and administrators also need their one-time
        code.
      </p>
      <button type="button" class="primary" onClick={signIn} disabled={leaving}>
        Sign in
      </button>
      <ProblemMessage error={error} />
    </main>
  );
}
