import { embeddedWorkflowEngine } from "../support/workflow-engines.js";
import { subCaseSagaContract } from "./sub-case-saga.suite.js";

subCaseSagaContract("embedded", embeddedWorkflowEngine);
