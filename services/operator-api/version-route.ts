import { defineRoute } from "../../src/http/route.js";

export interface BuildInfo {
  build: string;
  apiVersion: string;
  region: string;
}

const versionSchema = {
  type: "object",
  required: ["build", "apiVersion", "region"],
  properties: {
    build: { type: "string", description: "Deployed build identifier" },
    apiVersion: { type: "string", description: "API version of this deployment, e.g. v1" },
    region: { type: "string", description: "Region answering the request" },
  },
} as const;

/** Spec 9.4: any valid token of any surface may ask which build, API version and region answer. */
export function versionRoute(info: BuildInfo) {
  return defineRoute({
    method: "GET",
    path: "/version",
    operationId: "getVersion",
    summary: "Deployed build, API version and region",
    tags: ["Platform"],
    surface: "operator",
    access: { kind: "any-token" },
    responses: { 200: { description: "Build information", schema: versionSchema } },
    handler: () => ({ status: 200, body: { ...info } }),
  });
}
