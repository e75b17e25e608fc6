import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { itemWithRecommendations } from "./exception-agent-fixture.js";

/**
 * The exception agent with its optional language model configured (AGENT_LLM_URL) at a stand-in
 * OpenAI-compatible endpoint that reverses the rules' order and tries to slip in tools the agent
 * may not use: the order and explanations are taken, the forbidden tools are dropped.
 */
let t: TestPlatform;
let model: Server;
let supervisor: string;
const requests: { authorization: string | undefined; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      requests.push({ authorization: req.headers.authorization, body });
      if (req.url !== "/v1/chat/completions") {
        res.writeHead(404).end();
        return;
      }
      const asked = JSON.parse(body.messages.at(-1)!.content) as {
        proposals: { key: string; tool: string }[];
      };
      const ranked = [
        { key: "cancelReservation:{}", tool: "cancelReservation", explanation: "cancel the stay" },
        { key: 'notify:{"group":"all"}', tool: "notify", explanation: "tell everyone" },
        { key: 'proposeRebook:{"hotelUrn":"urn:hotel:elsewhere"}', tool: "proposeRebook" },
        ...[...asked.proposals]
          .reverse()
          .map((p) => ({ key: p.key, tool: p.tool, explanation: `why ${p.tool}` })),
      ];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content: JSON.stringify({ ranked }) } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  const { port } = model.address() as AddressInfo;
  t = await startTestPlatform({
    env: {
      RATE_LIMIT_SCALE: "20",
      AGENT_LLM_URL: `http://127.0.0.1:${port}/v1`,
      AGENT_LLM_MODEL: "stand-in",
      AGENT_LLM_API_KEY: "test-key",
    },
  });
  supervisor = await t.operatorToken("supervisor@zx.demo");
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => model?.close(resolve));
});

describe("the exception agent with a language model", () => {
  it("takes the model's order and explanations, and drops tools outside the allow-list", async () => {
    const { itemUrn } = await itemWithRecommendations(t, supervisor);
    const body = await json(
      await t.call("POST", "/v1/agent/triage", supervisor, { reviewItemUrn: itemUrn }),
      200,
    );
    const proposals = body.triages[0].proposals as {
      tool: string;
      rank: number;
      explanation: string;
      arguments: unknown;
    }[];
    expect(proposals.map((p) => [p.rank, p.tool, p.explanation])).toEqual([
      [1, "relax", "why relax"],
      [2, "proposeRebook", "why proposeRebook"],
    ]);
    expect(proposals[1]!.arguments).toEqual({ hotelUrn: "urn:hotel:spare" });
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]).toMatchObject({ authorization: "Bearer test-key", body: { model: "stand-in" } });
  });
});
