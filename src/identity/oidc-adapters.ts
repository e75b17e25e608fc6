import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";
import type { Clock } from "../runtime/clock.js";
import type { Directory } from "../app/directory.js";
import type { RevokedGrants } from "../http/auth/revoked-grants.js";

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/**
 * Storage for the provider's artifacts (sessions, interactions, codes, refresh tokens, grants) in
 * this process, with an index by grant so that revoking a grant drops its whole token family.
 * Partner clients are not stored: they are read from the directory on every lookup, so a secret
 * rotated there applies at once.
 *
 * JWT access tokens are not stored either, so "revoke the access tokens of this grant" (called on
 * refresh-token reuse, revocation and logout, and awaited before the response) records the grant
 * in the revoked-grant set the APIs consult. Unlike the `grant.revoked` event, this finishes before
 * the client hears of the revocation, so its next API call is already refused.
 */
export function createOidcAdapters(
  directory: Directory,
  clock: Clock,
  revokedGrants: RevokedGrants,
): AdapterFactory {
  const entries = new Map<string, Entry>();
  const grantMembers = new Map<string, Set<string>>();
  const sessionsByUid = new Map<string, string>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= clock.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  return (model: string): Adapter => {
    if (model === "Client") return directoryClients(directory);
    const keyOf = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id);
        const expiresAt = expiresIn ? clock.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        entries.set(key, { payload, expiresAt });
        if (payload.grantId) {
          const members = grantMembers.get(payload.grantId) ?? new Set<string>();
          members.add(key);
          grantMembers.set(payload.grantId, members);
        }
        if (model === "Session" && payload.uid) sessionsByUid.set(payload.uid, id);
      },
      async find(id) {
        return live(keyOf(id))?.payload;
      },
      async findByUid(uid) {
        const id = sessionsByUid.get(uid);
        return id === undefined ? undefined : live(keyOf(id))?.payload;
      },
      async findByUserCode() {
        return undefined;
      },
      async consume(id) {
        const entry = live(keyOf(id));
        if (entry) entry.payload.consumed = Math.floor(clock.now() / 1000);
      },
      async destroy(id) {
        entries.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        if (model === "AccessToken") await revokedGrants.add(grantId);
        for (const key of grantMembers.get(grantId) ?? []) entries.delete(key);
        grantMembers.delete(grantId);
      },
    };
  };
}

/** Partner registrations as confidential clients of the client-credentials grant only. */
function directoryClients(directory: Directory): Adapter {
  const readOnly = async () => {
    throw new Error("partner clients are managed in the directory");
  };
  return {
    async find(clientId) {
      const registration = await directory.findPartnerRegistration(clientId);
      if (!registration) return undefined;
      return {
        client_id: registration.clientId,
        client_secret: registration.clientSecret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        // The token-request normalizer turns client_secret_basic into body credentials.
        token_endpoint_auth_method: "client_secret_post",
      };
    },
    upsert: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => undefined,
  };
}
