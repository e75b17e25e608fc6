import { beforeAll, vi } from "vitest";
import { daprWorkflowEngine } from "../support/workflow-engines.js";
import { subCaseSagaContract } from "./sub-case-saga.suite.js";

beforeAll(() => {
  // The SDK logs every request and work item at info level.
  vi.spyOn(console, "info").mockImplementation(() => {});
});

subCaseSagaContract("dapr", daprWorkflowEngine);
