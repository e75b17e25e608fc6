import type { Advice, Classification, Proposal } from "../domain/agent/triage.js";

export interface OpenAiCompatibleSettings {
  /** Base URL of the API, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  url: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs?: number;
}

const INSTRUCTIONS =
  "You rank next actions for an airline disruption exception. You may only reorder the given " +
  "proposals and explain each in one sentence; never invent a proposal or a tool. Answer JSON: " +
  '{"ranked":[{"key":"<key>","tool":"<tool>","explanation":"<sentence>"}]}, most viable first.';

/**
 * The exception agent's language model over any OpenAI-compatible chat-completions endpoint
 * (AGENT_LLM_URL). Its answer is advice only: the agent keeps what `applyAdvice` lets through. Any
 * failure (network, status, unparsable answer) gives no advice, so the rules' order stands.
 */
export class OpenAiCompatibleAdvisor {
  constructor(private readonly settings: OpenAiCompatibleSettings) {}

  async advise(request: {
    classification: Classification;
    proposals: readonly (Proposal & { key: string })[];
  }): Promise<Advice | undefined> {
    const body = {
      model: this.settings.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: INSTRUCTIONS },
        {
          role: "user",
          content: JSON.stringify({
            cause: request.classification,
            proposals: request.proposals.map(({ key, tool, arguments: args, reason, evidence }) => ({
              key,
              tool,
              arguments: args,
              reason,
              evidence,
            })),
          }),
        },
      ],
    };
    try {
      const response = await fetch(`${this.settings.url.replace(/\/+$/, "")}/chat/completions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 5000),
      });
      if (!response.ok) return undefined;
      const answer = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
      const content = answer.choices?.[0]?.message?.content;
      if (typeof content !== "string") return undefined;
      const advice = JSON.parse(content) as Advice;
      return Array.isArray(advice?.ranked) ? advice : undefined;
    } catch {
      return undefined;
    }
  }
}
