/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) as route declarations write it: once, `as const`,
 * so the same object validates requests, documents the API and types the handler's inputs.
 */

export type JsonType = "string" | "integer" | "number" | "boolean" | "object" | "array" | "null";

export type JsonSchema = boolean | JsonSchemaObject;

export interface JsonSchemaObject {
  readonly type?: JsonType | readonly JsonType[];
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema;
  readonly unevaluatedProperties?: JsonSchema;
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly allOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly description?: string;
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

/** A schema for a set of named values (path parameters, query string, JSON object body). */
export interface ObjectSchema extends JsonSchemaObject {
  readonly type: "object";
  readonly properties: { readonly [name: string]: JsonSchema };
}

/**
 * The TypeScript type of values a schema accepts (the common keywords: type, properties, required,
 * items, enum, const, anyOf, oneOf). Properties with a `default` count as present, because
 * validation fills them in. `Bare` is the type of an object schema that lists no properties.
 */
export type Infer<S, Bare = Record<string, unknown>> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? Infer<A, Bare>
      : S extends { readonly oneOf: readonly (infer A)[] }
        ? Infer<A, Bare>
        : S extends { readonly type: readonly (infer T)[] }
          ? InferType<S, T, Bare>
          : S extends { readonly type: infer T }
            ? InferType<S, T, Bare>
            : unknown;

type InferType<S, T, Bare> = T extends "string"
  ? string
  : T extends "integer" | "number"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? Infer<I, Bare>[]
            : unknown[]
          : T extends "object"
            ? InferObject<S, Bare>
            : unknown;

type InferObject<S, Bare> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends Present<S, P> ? K : never]: Infer<P[K], Bare> } & {
        -readonly [K in keyof P as K extends Present<S, P> ? never : K]?: Infer<P[K], Bare>;
      }
    >
  : Bare;

type Present<S, P> =
  | (S extends { readonly required: readonly (infer R)[] } ? R : never)
  | { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

const COMPOSITION = ["allOf", "anyOf", "oneOf"] as const;
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs"] as const;
const SUBSCHEMAS = ["items", "additionalProperties", "contains"] as const;
/** Conditions on the same instance as their parent: they must not close it a second time. */
const CONDITIONS = ["not", "if", "then", "else"] as const;

/**
 * A deep copy of `schema` in which every object schema that lists `properties` and does not say
 * otherwise refuses unknown members: `additionalProperties: false` for plain ones, `unevaluatedProperties: false` where
 * allOf/anyOf/oneOf combine properties (additionalProperties would not see the branches'
 * properties). Branches of a combination are left open; their parent closes them.
 */
export function closeObjectSchemas<S extends JsonSchema>(schema: S): S {
  return close(schema, false) as S;
}

function close(schema: JsonSchema, isBranch: boolean): JsonSchema {
  if (typeof schema === "boolean") return schema;
  const copy: Record<string, unknown> = { ...schema };
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key] as Record<string, JsonSchema> | undefined;
    if (map) copy[key] = Object.fromEntries(Object.entries(map).map(([k, s]) => [k, close(s, false)]));
  }
  for (const key of SUBSCHEMAS) {
    const sub = schema[key] as JsonSchema | undefined;
    if (sub !== undefined) copy[key] = close(sub, false);
  }
  for (const key of CONDITIONS) {
    const sub = schema[key] as JsonSchema | undefined;
    if (sub !== undefined) copy[key] = close(sub, true);
  }
  if (Array.isArray(schema.prefixItems)) {
    copy.prefixItems = (schema.prefixItems as JsonSchema[]).map((s) => close(s, false));
  }
  for (const key of COMPOSITION) {
    const branches = schema[key];
    if (branches) copy[key] = branches.map((s) => close(s, true));
  }
  if (!isBranch && isOpenObject(schema)) {
    const combined = COMPOSITION.some((key) => schema[key] !== undefined);
    if (combined) {
      copy.unevaluatedProperties = false;
      // Ajv's strict mode wants the type stated next to unevaluatedProperties.
      const allBranchesObjects = COMPOSITION.every((key) => schema[key]?.every(isObjectLike) ?? true);
      if (schema.type === undefined && allBranchesObjects) copy.type = "object";
    } else {
      copy.additionalProperties = false;
    }
  }
  return copy as JsonSchema;
}

function isOpenObject(schema: JsonSchemaObject): boolean {
  if (
    schema.additionalProperties !== undefined ||
    schema.unevaluatedProperties !== undefined ||
    schema.patternProperties !== undefined
  ) {
    return false;
  }
  return isObjectLike(schema);
}

/** Declares named members, itself or through its branches; a bare `{type: "object"}` is a free-form map. */
function isObjectLike(schema: JsonSchema): boolean {
  if (typeof schema === "boolean") return false;
  if (schema.properties !== undefined) return true;
  return COMPOSITION.some((key) => schema[key]?.some(isObjectLike));
}
