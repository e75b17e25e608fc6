/**
 * Requests Node's HTTP parser refuses before any middleware runs (headers too large, a malformed
 * request line, a request that took too long) get the same RFC 7807 problem as every other error,
 * written straight to the socket from the server's `clientError` hook.
 */
import type { Socket } from "node:net";
import { ProblemError } from "./errors.js";
import { PROBLEM_CONTENT_TYPE, problemBody } from "./problem.js";
import { startTrace } from "./tracing.js";

interface ParserError extends Error {
  code?: string;
}

function problemFor(error: ParserError): ProblemError | undefined {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ProblemError({
        status: 431,
        category: "invalid",
        code: "headers-too-large",
        detail: "The request's headers (or its URL) are larger than this API accepts",
      });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ProblemError({
        status: 408,
        category: "invalid",
        code: "request-timeout",
        detail: "The request was not received in time",
      });
    case "ECONNRESET":
      return undefined;
    default:
      return new ProblemError({
        status: 400,
        category: "invalid",
        code: "malformed-request",
        detail: "The request is not valid HTTP/1.1",
      });
  }
}

/** The server's `clientError` listener: answers with a problem when the socket can still take one. */
export function answerClientError(errorsUrl: string): (error: ParserError, socket: Socket) => void {
  return (error, socket) => {
    const problem = problemFor(error);
    // As Node's own handler: only while no response of this connection has started.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!problem || !socket.writable || inFlight?.headersSent) {
      socket.destroy(error);
      return;
    }
    const document = problemBody(problem, errorsUrl, startTrace(undefined).correlationUrn);
    const body = JSON.stringify(document);
    socket.end(
      `HTTP/1.1 ${problem.status} ${document.title}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  };
}
