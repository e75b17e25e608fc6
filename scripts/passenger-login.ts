/**
 * Logs a passenger in as the passenger site does, and prints the session token:
 *   npm run -s passenger:login -- <PNR> <last name> [airline code]
 * It fetches a captcha challenge (GET /v1/auth/captcha), solves it as the ALTCHA widget in a
 * browser would (about a second of proof of work), and posts PNR login with the solution. The
 * airline code (ZX, VQ) picks that airline's passenger host (`zx.localhost`); without it the bare
 * host answers for the first demo airline. PASSENGER_BASE_URL (or PASSENGER_PORT) says where the
 * passenger API listens; http://localhost:8081 unless told.
 * Every attempt counts: five failures from one address lock it out for 15 minutes (spec 8.1).
 */
import { lookup } from "node:dns";
import { request } from "node:http";
import { type LookupFunction, isIP } from "node:net";
import { demoPassengerBaseUrl } from "../src/demo/demo-passenger-hosts.js";
import { type CaptchaChallenge, solveCaptcha } from "../src/passenger-identity/captcha.js";

const [pnr, lastName, airlineCode] = process.argv.slice(2);
if (!pnr || !lastName) {
  process.stderr.write("usage: npm run -s passenger:login -- <PNR> <last name> [airline code]\n");
  process.exit(2);
}
const configured = (
  process.env.PASSENGER_BASE_URL ?? `http://localhost:${process.env.PASSENGER_PORT ?? 8081}`
).replace(/\/+$/, "");
const base = airlineCode ? demoPassengerBaseUrl(configured, airlineCode) : configured;

/** `*.localhost` is the loopback address (RFC 6761), as curl and browsers treat it. */
const loopbackLookup = ((hostname, options, callback) => {
  if (hostname !== "localhost" && !hostname.endsWith(".localhost"))
    return lookup(hostname, options, callback);
  if (options.all) return callback(null, [{ address: "127.0.0.1", family: 4 }]);
  return callback(null, "127.0.0.1", 4);
}) as LookupFunction;

/** One JSON request over node:http: fetch would send the connected address as the Host header. */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const url = new URL(`${base}${path}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ...(isIP(url.hostname) ? {} : { lookup: loopbackLookup }),
        headers: payload
          ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }
          : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, json: text });
          }
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const challenge = await call("GET", "/v1/auth/captcha");
if (challenge.status !== 200) {
  process.stderr.write(
    `GET ${base}/v1/auth/captcha answered ${challenge.status}: ${JSON.stringify(challenge.json)}\n`,
  );
  process.exit(1);
}
const captcha = await solveCaptcha(challenge.json as CaptchaChallenge);
const login = await call("POST", "/v1/auth/pnr-login", { pnr, lastName, captcha });
if (login.status !== 200) {
  process.stderr.write(
    `PNR login at ${base} answered ${login.status}: ${JSON.stringify(login.json, null, 2)}\n`,
  );
  process.exit(1);
}
const { sessionToken, caseUrn, expiresAt } = login.json as {
  sessionToken: string;
  caseUrn: string;
  expiresAt: string;
};
process.stderr.write(`Session for ${caseUrn} until ${expiresAt} (send it as Authorization: Bearer):\n`);
process.stdout.write(`${sessionToken}\n`);
