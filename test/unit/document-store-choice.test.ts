import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

describe("where documents live (DOCUMENT_STORE)", () => {
  const choice = (env: Record<string, string>) => loadConfig(env).documentStore;

  it("follows a durable state store: Redis without MongoDB, MongoDB when it is configured", () => {
    expect(choice({})).toBe("memory");
    expect(choice({ STATE_STORE: "redis" })).toBe("redis");
    expect(choice({ STATE_STORE: "redis", MONGODB_URL: "mongodb://db" })).toBe("mongodb");
    expect(choice({ MONGODB_URL: "mongodb://db" })).toBe("memory");
  });

  it("takes an explicit choice, the former spelling `mongo` too, and refuses others", () => {
    expect(choice({ STATE_STORE: "redis", DOCUMENT_STORE: "memory" })).toBe("memory");
    expect(choice({ DOCUMENT_STORE: "redis" })).toBe("redis");
    expect(choice({ DOCUMENT_STORE: "mongo" })).toBe("mongodb");
    expect(() => choice({ DOCUMENT_STORE: "postgres" })).toThrow(/DOCUMENT_STORE must be one of/);
    expect(loadConfig({}).redisDocumentPrefix).toBe("documents:");
  });
});
