/**
 * Logout in the order of spec 5.1: (1) the live session is closed so the operator's sub-case locks
 * are released: `POST /v1/auth/logout` closes the operator's WebSocket connections and releases
 * every lock before it answers, then this window's socket is closed; (2) only then the refresh
 * token is revoked at the identity provider (its httpOnly cookie goes with the request); (3) the
 * client state is cleared.
 */
import { api, ApiProblem } from "./api.js";
import { revokeRefreshToken } from "./identity.js";
import { live } from "./live.js";
import { accessToken, clearSession } from "./session.js";

export async function logout(): Promise<void> {
  if (accessToken()) {
    const leaving = live.leaving();
    try {
      await api<void>("POST", "/v1/auth/logout", {});
    } catch (error) {
      // A session the identity provider already ended has nothing left to close on the server.
      if (!(error instanceof ApiProblem && error.status === 401)) {
        leaving.resume();
        throw error;
      }
    }
  }
  await live.stop();
  await revokeRefreshToken();
  clearSession();
}
