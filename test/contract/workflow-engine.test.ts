import { embeddedWorkflowEngine } from "../support/workflow-engines.js";
import { workflowEngineContract } from "./workflow-engine.suite.js";

workflowEngineContract("embedded", embeddedWorkflowEngine);
