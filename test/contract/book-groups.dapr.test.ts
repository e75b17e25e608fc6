import { beforeAll, vi } from "vitest";
import { daprWorkflowEngine } from "../support/workflow-engines.js";
import { bookGroupsContract } from "./book-groups.suite.js";

beforeAll(() => {
  // The SDK logs every request and work item at info level.
  vi.spyOn(console, "info").mockImplementation(() => {});
});

bookGroupsContract("dapr", daprWorkflowEngine);
