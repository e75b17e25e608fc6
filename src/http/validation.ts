/**
 * Request validation with Ajv (JSON Schema 2020-12, strict, all errors, formats). Each route's
 * schemas are compiled once, when the routes are mounted; a bad schema fails at start-up rather
 * than on the first request. Path and query values arrive as strings and are coerced to the declared
 * types; JSON bodies are not coerced. Failures are a 400 problem whose `errors` member lists
 * `{in, field, message}` per field, `field` being a JSON pointer such as `/flight/number`.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { ProblemError } from "./errors.js";
import type { JsonSchema } from "./json-schema.js";

export type RequestPart = "path" | "query" | "body";

export interface FieldError {
  in: RequestPart;
  field: string;
  message: string;
}

export interface RequestParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Checks all three parts in place (coercing, filling defaults) and throws one 400 problem listing
 * every invalid field of every part.
 */
export type RequestValidator = (parts: RequestParts) => void;

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsPlugin as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

function createAjv(coerceTypes: boolean | "array"): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, coerceTypes });
  addFormats(ajv);
  // OpenAPI's own annotation keyword, harmless to validation.
  ajv.addKeyword({ keyword: "example", metaSchema: {} });
  return ajv;
}

let bodyAjv: Ajv2020 | undefined;
let textAjv: Ajv2020 | undefined;

function ajvFor(part: RequestPart): Ajv2020 {
  if (part === "body") {
    bodyAjv ??= createAjv(false);
    return bodyAjv;
  }
  // Repeated query parameters arrive as arrays and single ones as strings: "array" coercion
  // accepts both for array-typed parameters.
  textAjv ??= createAjv("array");
  return textAjv;
}

/** Compiles the three schemas of a route; throws at once if one is not a valid strict schema. */
export function compileRequestValidator(schemas: Record<keyof RequestParts, JsonSchema>): RequestValidator {
  const parts: [keyof RequestParts, RequestPart, ValidateFunction][] = [
    ["params", "path", ajvFor("path").compile(schemas.params as object)],
    ["query", "query", ajvFor("query").compile(schemas.query as object)],
    ["body", "body", ajvFor("body").compile(schemas.body as object)],
  ];
  return (values) => {
    const errors: FieldError[] = [];
    for (const [name, part, validate] of parts) {
      if (!validate(values[name])) errors.push(...fieldErrors(part, validate.errors ?? []));
    }
    if (errors.length > 0) throw validationFailed(errors);
  };
}

export function validationFailed(errors: FieldError[]): ProblemError {
  return new ProblemError({
    status: 400,
    category: "invalid",
    code: "validation-failed",
    detail: `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}`,
    extensions: { errors },
  });
}

function fieldErrors(part: RequestPart, errors: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
    const fieldError = describe(part, error);
    const key = `${fieldError.field}\u0000${fieldError.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(fieldError);
  }
  return result;
}

function describe(part: RequestPart, error: ErrorObject): FieldError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { in: part, field: child(error.instancePath, params.missingProperty), message: "is required" };
    case "additionalProperties":
      return {
        in: part,
        field: child(error.instancePath, params.additionalProperty),
        message: "is not an accepted field",
      };
    case "unevaluatedProperties":
      return {
        in: part,
        field: child(error.instancePath, params.unevaluatedProperty),
        message: "is not an accepted field",
      };
    default:
      return { in: part, field: error.instancePath || "/", message: error.message ?? "is not valid" };
  }
}

function child(pointer: string, name: unknown): string {
  return `${pointer}/${String(name).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}
