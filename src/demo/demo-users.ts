import type { StaticUser } from "../identity/static-directory.js";

/**
 * One user per role per airline, an airport-scoped operator per airline and one user without an
 * organization (refused at login). Passwords are deterministic and published by
 * `npm run demo:credentials`: DEVELOPMENT ONLY, never seed them anywhere else.
 * The TOTP secrets (base32) belong to the roles that must present a second factor.
 */
export const DEMO_USERS: readonly StaticUser[] = [
  {
    id: "zx-admin",
    username: "admin@zx.demo",
    email: "admin@zx.demo",
    password: "demo-zx-admin",
    membership: { airlineUrn: "urn:airline:ZX", role: "ADMIN" },
    totpSecret: "UZ4NWA6NSM4SJYS2HAE4JOO4CSR5VOWS",
  },
  {
    id: "zx-supervisor",
    username: "supervisor@zx.demo",
    email: "supervisor@zx.demo",
    password: "demo-zx-supervisor",
    membership: { airlineUrn: "urn:airline:ZX", role: "OPS_SUPERVISOR" },
    totpSecret: "RHRMTYCISWARED5WZZUQILSFY5HVEYUQ",
  },
  {
    id: "zx-operator",
    username: "operator@zx.demo",
    email: "operator@zx.demo",
    password: "demo-zx-operator",
    membership: { airlineUrn: "urn:airline:ZX", role: "AIRPORT_OPERATOR" },
  },
  {
    id: "zx-operator-jfk",
    username: "operator.jfk@zx.demo",
    email: "operator.jfk@zx.demo",
    password: "demo-zx-operator-jfk",
    membership: { airlineUrn: "urn:airline:ZX", role: "AIRPORT_OPERATOR", airport: "JFK" },
  },
  {
    id: "zx-finance",
    username: "finance@zx.demo",
    email: "finance@zx.demo",
    password: "demo-zx-finance",
    membership: { airlineUrn: "urn:airline:ZX", role: "FINANCE_AUDIT" },
    totpSecret: "V7WSSHGX6EH3F4DLTQN5AGMDRZWTNJSO",
  },
  {
    id: "vq-admin",
    username: "admin@vq.demo",
    email: "admin@vq.demo",
    password: "demo-vq-admin",
    membership: { airlineUrn: "urn:airline:VQ", role: "ADMIN" },
    totpSecret: "DZN3RHJ6TUN45HVYXLEN6QLE7XPQZDTZ",
  },
  {
    id: "vq-supervisor",
    username: "supervisor@vq.demo",
    email: "supervisor@vq.demo",
    password: "demo-vq-supervisor",
    membership: { airlineUrn: "urn:airline:VQ", role: "OPS_SUPERVISOR" },
    totpSecret: "DVOWCU3ERPQ2AE5GH2Q63H4FHLG6PVP7",
  },
  {
    id: "vq-operator",
    username: "operator@vq.demo",
    email: "operator@vq.demo",
    password: "demo-vq-operator",
    membership: { airlineUrn: "urn:airline:VQ", role: "AIRPORT_OPERATOR" },
  },
  {
    id: "vq-operator-lhr",
    username: "operator.lhr@vq.demo",
    email: "operator.lhr@vq.demo",
    password: "demo-vq-operator-lhr",
    membership: { airlineUrn: "urn:airline:VQ", role: "AIRPORT_OPERATOR", airport: "LHR" },
  },
  {
    id: "vq-finance",
    username: "finance@vq.demo",
    email: "finance@vq.demo",
    password: "demo-vq-finance",
    membership: { airlineUrn: "urn:airline:VQ", role: "FINANCE_AUDIT" },
    totpSecret: "VDWMQESBZIKZRVUXNTZZW3SHHVTS23RH",
  },
  {
    id: "unaffiliated",
    username: "unaffiliated@demo",
    email: "unaffiliated@demo",
    password: "demo-unaffiliated",
  },
];
