/**
 * A fixture started afresh before each test of the file that calls this and closed after it, so no
 * test sees another's state: the set-up the booking tests share.
 */
import { afterEach, beforeEach } from "vitest";

export function startedEachTest<F extends { close(): Promise<void> }>(
  start: () => Promise<F>,
  use: (fixture: F) => void,
): void {
  let fixture: F | undefined;
  beforeEach(async () => {
    fixture = await start();
    use(fixture);
  });
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
}
