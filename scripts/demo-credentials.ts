/**
 * Prints the demo logins of the embedded default (DEVELOPMENT ONLY: these passwords, TOTP secrets
 * and client secrets are public):
 *   npm run -s demo:credentials                      one JSON object
 *   npm run -s demo:credentials -- --commands [VQ]   shell commands that put an airline's tokens in
 *                                                    TOKEN, SUPERVISOR_TOKEN, ADMIN_TOKEN and PT (ZX unless told)
 * PUBLIC_BASE_URL and PASSENGER_BASE_URL (or PORT and PASSENGER_PORT) as for `npm start`.
 */
import { demoCredentials } from "../src/demo/demo-credentials.js";
import { demoTokenCommands } from "../src/demo/demo-token-commands.js";
import { defaultAudiences } from "../src/identity/audiences.js";

const baseUrl = process.env.PUBLIC_BASE_URL || `http://localhost:${process.env.PORT ?? 8080}`;
const passengerBaseUrl =
  process.env.PASSENGER_BASE_URL || `http://localhost:${process.env.PASSENGER_PORT ?? 8081}`;

const credentials = demoCredentials({
  baseUrl,
  passengerBaseUrl,
  authUrl: `${baseUrl}/auth`,
  audiences: defaultAudiences(baseUrl, passengerBaseUrl),
  now: Date.now(),
});

const [flag, code = "ZX"] = process.argv.slice(2);
if (flag === "--commands") {
  const tenant = credentials.tenants.find((t) => t.airlineUrn === `urn:airline:${code.toUpperCase()}`);
  if (!tenant) {
    process.stderr.write(
      `No demo airline ${code}; there are ${credentials.tenants.map((t) => t.airlineUrn).join(", ")}\n`,
    );
    process.exit(2);
  }
  process.stdout.write(demoTokenCommands(credentials, tenant));
} else {
  process.stdout.write(`${JSON.stringify(credentials, null, 2)}\n`);
}
