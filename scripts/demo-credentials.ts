/**
 * Prints the demo logins of the embedded default as JSON (`npm run demo:credentials`).
 * DEVELOPMENT ONLY: these passwords, TOTP secrets and client secrets are public.
 */
import { demoCredentials } from "../src/demo/demo-credentials.js";
import { defaultAudiences } from "../src/identity/audiences.js";

const port = Number(process.env.PORT ?? 8080);
const passengerPort = Number(process.env.PASSENGER_PORT ?? 8081);
const baseUrl = `http://localhost:${port}`;
const passengerBaseUrl = `http://localhost:${passengerPort}`;

const credentials = demoCredentials({
  baseUrl,
  passengerBaseUrl,
  authUrl: `${baseUrl}/auth`,
  audiences: defaultAudiences(baseUrl, passengerBaseUrl),
  now: Date.now(),
});
process.stdout.write(`${JSON.stringify(credentials, null, 2)}\n`);
