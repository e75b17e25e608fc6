import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { describe, expect, it } from "vitest";
import { Captcha, type CaptchaChallenge } from "../../src/passenger-identity/captcha.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";

const LOW = { algorithm: "SHA-256", cost: 1, counterMin: 1, counterMax: 20 } as const;

function setup() {
  const clock = new ManualClock("2026-03-01T10:00:00Z");
  const counters = new MemoryCounterStore(clock);
  const captcha = new Captcha({ hmacSecret: "test-captcha-secret", counters, clock, complexity: LOW });
  return { clock, counters, captcha };
}

async function solve(challenge: CaptchaChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("the test challenge could not be solved");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

describe("captcha", () => {
  it("accepts a solved challenge it issued", async () => {
    const { captcha } = setup();
    const payload = await solve(await captcha.issueChallenge());
    expect(await captcha.verifySolution(payload)).toEqual({ verified: true });
  });

  it("issues challenges that expire 5 minutes later by the injected clock", async () => {
    const { clock, captcha } = setup();
    const challenge = await captcha.issueChallenge();
    expect(challenge.parameters.data?.expiresAt).toBe(clock.now() + 5 * 60 * 1000);
    expect(challenge.parameters.expiresAt).toBeUndefined();
  });

  it("refuses a missing solution", async () => {
    const { captcha } = setup();
    expect(await captcha.verifySolution("")).toEqual({ verified: false, refusal: "missing" });
    expect(await captcha.verifySolution("   ")).toEqual({ verified: false, refusal: "missing" });
  });

  it("refuses garbage and payloads of the wrong shape", async () => {
    const { captcha } = setup();
    for (const garbage of [
      "not base64 at all!",
      Buffer.from("{not json").toString("base64"),
      Buffer.from(JSON.stringify({ challenge: {}, solution: {} })).toString("base64"),
      Buffer.from("null").toString("base64"),
    ]) {
      expect(await captcha.verifySolution(garbage)).toEqual({ verified: false, refusal: "malformed" });
    }
  });

  it("refuses a challenge signed with another secret or altered after signing", async () => {
    const { counters, clock, captcha } = setup();
    const foreign = new Captcha({ hmacSecret: "someone-else", counters, clock, complexity: LOW });
    expect(await captcha.verifySolution(await solve(await foreign.issueChallenge()))).toEqual({
      verified: false,
      refusal: "malformed",
    });
    const challenge = await captcha.issueChallenge();
    const stretched: CaptchaChallenge = {
      ...challenge,
      parameters: { ...challenge.parameters, data: { expiresAt: clock.now() + 86_400_000 } },
    };
    expect(await captcha.verifySolution(await solve(stretched))).toEqual({
      verified: false,
      refusal: "malformed",
    });
  });

  it("refuses a wrong solution of a genuine challenge", async () => {
    const { captcha } = setup();
    const challenge = await captcha.issueChallenge();
    const wrong = { counter: 0, derivedKey: "00".repeat(32) };
    const payload = Buffer.from(JSON.stringify({ challenge, solution: wrong })).toString("base64");
    expect(await captcha.verifySolution(payload)).toEqual({ verified: false, refusal: "unsolved" });
  });

  it("refuses a solution submitted after the challenge expired", async () => {
    const { clock, captcha } = setup();
    const payload = await solve(await captcha.issueChallenge());
    await clock.advance(5 * 60 * 1000);
    expect(await captcha.verifySolution(payload)).toEqual({ verified: false, refusal: "expired" });
  });

  it("accepts a solution once: the same payload is refused the second time", async () => {
    const { clock, captcha } = setup();
    const payload = await solve(await captcha.issueChallenge());
    expect(await captcha.verifySolution(payload)).toEqual({ verified: true });
    await clock.advance(4 * 60 * 1000);
    expect(await captcha.verifySolution(payload)).toEqual({ verified: false, refusal: "reused" });
  });

  it("counts two verifications racing with the same payload as one use", async () => {
    const { captcha } = setup();
    const payload = await solve(await captcha.issueChallenge());
    const verdicts = await Promise.all([captcha.verifySolution(payload), captcha.verifySolution(payload)]);
    expect(verdicts.filter((v) => v.verified)).toHaveLength(1);
  });
});
