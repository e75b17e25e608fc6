/**
 * Which start of which node a process is. A node (NODE_ID: a host, a pod) runs one process at a
 * time, and each start of it counts one more incarnation: so a process knows every earlier
 * incarnation of its own node is dead (it was killed or crashed, or it stopped), without waiting
 * for anything it left behind (a booking claim) to run out.
 */
export interface Incarnation {
  node: string;
  incarnation: number;
}

/** The process of a node that never restarts (tests, a single in-memory process). */
export const SOLE_INCARNATION: Incarnation = { node: "local", incarnation: 1 };

/** `earlier` is a dead predecessor of `current`: an earlier start of the same node. */
export function isPredecessor(earlier: Incarnation, current: Incarnation): boolean {
  return earlier.node === current.node && earlier.incarnation < current.incarnation;
}
