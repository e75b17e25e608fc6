/** A refusal a simulated vendor answers with its own error envelope and HTTP status. */
export class SimulatedFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "SimulatedFailure";
  }
}

/** The connection dropped without an answer: the in-process transport sees a rejection, HTTP a reset socket. */
export class ConnectionReset extends Error {
  constructor(vendor: string) {
    super(`${vendor} closed the connection without answering`);
    this.name = "ConnectionReset";
  }
}
