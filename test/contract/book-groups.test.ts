import { embeddedWorkflowEngine } from "../support/workflow-engines.js";
import { bookGroupsContract } from "./book-groups.suite.js";

bookGroupsContract("embedded", embeddedWorkflowEngine);
