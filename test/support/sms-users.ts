import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";
import { StaticDirectory, type StaticUser } from "../../src/identity/static-directory.js";

/**
 * Users whose only second factor is a phone number (spec 5.1: SMS never for ADMIN, the last
 * resort for FINANCE_AUDIT); the demo directory has none.
 */
export const SMS_FINANCE: StaticUser = {
  id: "zx-sms-finance",
  username: "sms.finance@zx.demo",
  email: "sms.finance@zx.demo",
  password: "demo-sms-finance",
  membership: { airlineUrn: "urn:airline:ZX", role: "FINANCE_AUDIT" },
  smsNumber: "+15550101",
};

export const SMS_ADMIN: StaticUser = {
  ...SMS_FINANCE,
  id: "zx-sms-admin",
  username: "sms.admin@zx.demo",
  email: "sms.admin@zx.demo",
  password: "demo-sms-admin",
  membership: { airlineUrn: "urn:airline:ZX", role: "ADMIN" },
  smsNumber: "+15550100",
};

/** The demo airlines with the SMS-only users. */
export function smsUsersDirectory(): StaticDirectory {
  return new StaticDirectory({ organizations: DEMO_AIRLINES, users: [SMS_FINANCE, SMS_ADMIN], partners: [] });
}
