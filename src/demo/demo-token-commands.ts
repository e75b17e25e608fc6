import type { DemoCredentials, DemoTenantCredentials } from "./demo-credentials.js";

/** Reads `access_token` from the token endpoint's JSON answer on stdin (no jq needed). */
const ACCESS_TOKEN = `node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token'`;

/**
 * The current RFC 6238 code of a TOTP secret, with the `otpauth` package the project installs (run
 * it in the project folder, where `require` finds it).
 */
export function totpCommand(secret: string): string {
  return `node -p 'const { TOTP, Secret } = require("otpauth"); TOTP.generate({ secret: Secret.fromBase32("${secret}") })'`;
}

/**
 * Ready-to-paste shell commands that put one demo airline's tokens in shell variables: TOKEN (an
 * airport operator, no second factor), SUPERVISOR_TOKEN and ADMIN_TOKEN (password and TOTP code),
 * PT (a partner, client credentials), and how a passenger logs in once a booking exists.
 */
export function demoTokenCommands(credentials: DemoCredentials, tenant: DemoTenantCredentials): string {
  const tokenUrl = `${credentials.authUrl}/oauth/token`;
  const user = (role: string) => {
    const found = tenant.users.find((u) => u.role === role && !u.airport);
    if (!found) throw new Error(`${tenant.airlineUrn} has no demo user with role ${role}`);
    return found;
  };
  const post = (variable: string, body: Record<string, string>, otp?: string) => {
    const json = JSON.stringify(body);
    // The TOTP code is spliced into the single-quoted body from $OTP.
    const withOtp = otp ? json.replace(/}$/, `,"otp":"'"$OTP"'"}`) : json;
    return [
      ...(otp ? [`OTP=$(${totpCommand(otp)})`] : []),
      `${variable}=$(curl -s ${tokenUrl} -H 'Content-Type: application/json' \\`,
      `  -d '${withOtp}' \\`,
      `  | ${ACCESS_TOKEN})`,
    ];
  };
  const passwordGrant = (variable: string, role: string) => {
    const { username, password, totpSecret } = user(role);
    return post(
      variable,
      { grant_type: "password", username, password, audience: credentials.audiences.operator },
      totpSecret,
    );
  };
  const partner =
    tenant.partners.find((p) => p.scopes.includes("disruptions.events.publish")) ?? tenant.partners[0];
  const code = tenant.airlineUrn.replace("urn:airline:", "");
  return [
    `# ${tenant.airlineUrn}: airports ${tenant.airports.join(", ")}; passengers at ${tenant.passengerBaseUrl}`,
    "# Run these in the project folder (the TOTP one-liner uses its otpauth package).",
    "# An airport operator (no second factor):",
    ...passwordGrant("TOKEN", "AIRPORT_OPERATOR"),
    "# A supervisor and an admin: password and the current TOTP code of their secret:",
    ...passwordGrant("SUPERVISOR_TOKEN", "OPS_SUPERVISOR"),
    ...passwordGrant("ADMIN_TOKEN", "ADMIN"),
    ...(partner
      ? [
          `# A partner (${partner.clientId}, tier ${partner.tier}): client credentials:`,
          ...post("PT", {
            grant_type: "client_credentials",
            client_id: partner.clientId,
            client_secret: partner.clientSecret,
            audience: credentials.audiences.partner,
          }),
        ]
      : []),
    `curl -s ${credentials.baseUrl}/version -H "Authorization: Bearer $TOKEN"`,
    "# A passenger, once a disruption lists their PNR (e.g. ABC123 Rivera in the README's walkthrough);",
    "# it solves the login captcha as a browser would:",
    `PAX=$(npm run -s passenger:login -- ABC123 Rivera ${code})`,
    "",
  ].join("\n");
}
