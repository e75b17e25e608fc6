import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";

/**
 * The operator OpenAPI document as the console's source of allowed values (tiers, amenities,
 * categories, compensation actions...): the service states each schema once and publishes it there,
 * so the console asks rather than keeping its own copy of every list.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: readonly unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: { name?: string; in?: string; schema?: JsonSchema }[];
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

let fetched: Promise<OpenApiDocument> | undefined;

/** The document, fetched once per page load (again after a failed fetch). */
function operatorDocument(): Promise<OpenApiDocument> {
  fetched ??= api<OpenApiDocument>("GET", "/openapi/operator/v1.json").catch((error: unknown) => {
    fetched = undefined;
    throw error;
  });
  return fetched;
}

function operationOf(document: OpenApiDocument, operationId: string): Operation | undefined {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (operation.operationId === operationId) return operation;
    }
  }
  return undefined;
}

/**
 * What an operation takes: its JSON body's schema, and its query parameters as one object schema;
 * with what it returns (its 200 JSON body's schema), which tells the body's own fields from those
 * that only shape the request.
 */
export interface OperationInput {
  body: JsonSchema;
  query: JsonSchema;
  response: JsonSchema;
}

/** The input schemas of the operation `operationId`; null until the document is read. */
export function useOperationInput(operationId: string): OperationInput | null {
  const [input, setInput] = useState<OperationInput | null>(null);
  useEffect(() => {
    let live = true;
    operatorDocument()
      .then((document) => {
        const operation = operationOf(document, operationId);
        const properties = Object.fromEntries(
          (operation?.parameters ?? [])
            .filter((p) => p.in === "query" && p.name && p.schema)
            .map((p) => [p.name!, p.schema!]),
        );
        if (live) {
          setInput({
            body: operation?.requestBody?.content?.["application/json"]?.schema ?? {},
            query: { type: "object", properties },
            response: operation?.responses?.["200"]?.content?.["application/json"]?.schema ?? {},
          });
        }
      })
      // Without the document the forms keep free-text inputs; the API still validates.
      .catch(() => live && setInput({ body: {}, query: {}, response: {} }));
    return () => {
      live = false;
    };
  }, [operationId]);
  return input;
}

/**
 * The schema at `path` below `schema`: each step a property name, `[]` for an array's items;
 * nullable and alternative forms (anyOf, oneOf) are looked through.
 */
export function schemaAt(
  schema: JsonSchema | null | undefined,
  path: readonly string[],
): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema ?? undefined;
  for (const step of path) {
    if (node === undefined) return undefined;
    const branches: JsonSchema[] = [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])];
    node =
      step === "[]"
        ? branches.find((b) => b.items)?.items
        : branches.find((b) => b.properties?.[step])?.properties?.[step];
  }
  return node;
}

/** The allowed values at `path` (see schemaAt), as strings; empty when the document names none. */
export function enumAt(schema: JsonSchema | null | undefined, path: readonly string[]): string[] {
  const node = schemaAt(schema, path);
  const branches = node ? [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])] : [];
  return (branches.find((b) => b.enum)?.enum ?? []).filter((v): v is string => typeof v === "string");
}
