/**
 * A request answered before its body was read (a refusal at authentication, a 413 once the body
 * passed its limit) still has bytes on the way. Left unread they stall the connection, and a
 * connection closed under them resets it, so the client, still sending, may never read the
 * answer. The rest of the body is read and dropped instead, up to a bound past which the client
 * is not worth waiting for and the connection is cut.
 */
import type { IncomingMessage } from "node:http";

/** Bytes of an unread body discarded before the connection is closed instead. */
export const UNREAD_BODY_DISCARD_LIMIT_BYTES = 32 * 1024 * 1024;

/** Once the request is answered: reads and drops what is left of its body. */
export function discardUnreadBody(
  request: IncomingMessage,
  limitBytes = UNREAD_BODY_DISCARD_LIMIT_BYTES,
): void {
  // `complete`: the parser has seen the whole message, so nothing more is on the way.
  if (request.complete || request.destroyed) return;
  let discarded = 0;
  request.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limitBytes) request.socket.destroy();
  });
  request.resume();
}
