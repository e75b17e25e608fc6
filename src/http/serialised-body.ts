/**
 * Response bodies already written out as JSON, by the body they are of: a body a handler hands
 * out unchanged, read after read (the offer OfferCache keeps, a case detail CaseReads keeps), is
 * serialised once instead of on every response. Only for values that are never changed once built.
 */
const serialised = new WeakMap<object, Buffer>();

/** Serialises `body` now, unless it was already; returns it as it is. */
export function serialisedOnce<T extends object>(body: T): T {
  if (!serialised.has(body)) serialised.set(body, Buffer.from(JSON.stringify(body)));
  return body;
}

/** The JSON of `body`, when serialisedOnce wrote it out. */
export function serialisationOf(body: unknown): Buffer | undefined {
  return typeof body === "object" && body !== null ? serialised.get(body) : undefined;
}
