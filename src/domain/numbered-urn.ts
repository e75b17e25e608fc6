import { parseUrn } from "./urn.js";

/** Where a numbered thing lives: the id of the actor that holds it (named `Key`), and its number there. */
export type NumberedAddress<Key extends string> = { [K in Key]: string } & { number: number };

/**
 * URNs of things numbered within the actor that holds them (a case's waves and demand, a policy
 * context's policies): `urn:<kind>:<actor id>.<number>`, so any replica finds the actor from the
 * URN alone. `actorIdPattern` says what the actor's ids look like; `key` names the actor id in an
 * address.
 */
export function numberedUrns<const Key extends string>(kind: string, key: Key, actorIdPattern: string) {
  const id = new RegExp(`^(${actorIdPattern})\\.([1-9][0-9]{0,8})$`);
  return {
    urnOf: (actorId: string, number: number): string => `urn:${kind}:${actorId}.${number}`,
    /** Undefined for a URN that no such thing can have (it is then simply not found). */
    addressOf: (urn: string): NumberedAddress<Key> | undefined => {
      const parsed = parseUrn(urn, kind);
      const match = parsed && id.exec(parsed.id);
      if (!match || Object.keys(parsed.attributes).length > 0) return undefined;
      return { [key]: match[1]!, number: Number(match[2]) } as NumberedAddress<Key>;
    },
  };
}

/** A case id as waves and demand carry it in their URNs. */
export const CASE_ID_PATTERN = "[0-9a-zA-Z-]{1,64}";
