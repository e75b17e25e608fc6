import { useEffect, useState } from "preact/hooks";
import { completeLogin } from "../identity.js";
import { navigate } from "../router.js";
import { ProblemMessage } from "../components/problem-message.js";
import { Link } from "../components/link.js";

/** `/console/callback`: exchanges the authorization code, removes it from the address, goes on. */
export function CallbackPage() {
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const url = new URL(window.location.href);
    // The code is single-use and must not stay in the address bar or the history.
    history.replaceState(null, "", "/console/callback");
    completeLogin(url).then(
      (returnTo) => navigate(returnTo.startsWith("/callback") ? "/" : returnTo, true),
      setError,
    );
  }, []);
  return (
    <main id="main" class="sign-in">
      <h1>Signing in</h1>
      {error ? (
        <>
          <ProblemMessage error={error} />
          <Link to="/">Back to sign-in</Link>
        </>
      ) : (
        <p role="status">Completing the sign-in…</p>
      )}
    </main>
  );
}
