import type { Audiences } from "../identity/audiences.js";
import type { OperatorRole } from "../domain/roles.js";
import { DEMO_AIRLINES } from "./demo-airlines.js";
import { demoPassengerBaseUrl } from "./demo-passenger-hosts.js";
import { demoPartnerRegistrations } from "./demo-partners.js";
import { demoWalletAccounts } from "./demo-wallet-accounts.js";
import { DEMO_USERS } from "./demo-users.js";

export interface DemoCredentials {
  baseUrl: string;
  passengerBaseUrl: string;
  authUrl: string;
  audiences: Audiences;
  tenants: DemoTenantCredentials[];
}

export interface DemoTenantCredentials {
  airlineUrn: string;
  airports: string[];
  passengerBaseUrl: string;
  users: { username: string; password: string; role: OperatorRole; airport?: string; totpSecret?: string }[];
  partners: { clientId: string; clientSecret: string; scopes: string[]; tier: 1 | 2 | 3 }[];
  /** The wallet issuer's webhooks for this tenant: where they go and the secret that signs them (spec 4.5). */
  walletIssuer: { vendor: string; webhookUrl: string; webhookSecret: string };
}

export interface DemoEndpoints {
  baseUrl: string;
  passengerBaseUrl: string;
  authUrl: string;
  audiences: Audiences;
  /** Milliseconds since the epoch; places the demo partner's secret-rotation window. */
  now: number;
}

/**
 * Everything a person or script needs to call the demo: per tenant, the users with their passwords
 * and TOTP secrets and the partner clients with their current secrets. The user without an
 * organization belongs to no tenant and so is not listed.
 */
export function demoCredentials({
  baseUrl,
  passengerBaseUrl,
  authUrl,
  audiences,
  now,
}: DemoEndpoints): DemoCredentials {
  const partners = demoPartnerRegistrations(now);
  const wallets = demoWalletAccounts();
  return {
    baseUrl,
    passengerBaseUrl,
    authUrl,
    audiences,
    tenants: DEMO_AIRLINES.map((airline) => ({
      airlineUrn: airline.airlineUrn,
      airports: airline.airports.map((a) => a.code),
      passengerBaseUrl: demoPassengerBaseUrl(passengerBaseUrl, airline.code),
      users: DEMO_USERS.filter((u) => u.membership?.airlineUrn === airline.airlineUrn).map((u) => ({
        username: u.username,
        password: u.password,
        role: u.membership!.role,
        ...(u.membership!.airport ? { airport: u.membership!.airport } : {}),
        ...(u.totpSecret ? { totpSecret: u.totpSecret } : {}),
      })),
      partners: partners
        .filter((p) => p.airlineUrn === airline.airlineUrn)
        .map((p) => ({ clientId: p.clientId, clientSecret: p.clientSecret, scopes: p.scopes, tier: p.tier })),
      walletIssuer: {
        vendor: wallets.get(airline.airlineUrn)!.vendor,
        webhookUrl: `${baseUrl}/v1/wallet/webhooks/${wallets.get(airline.airlineUrn)!.vendor}`,
        webhookSecret: wallets.get(airline.airlineUrn)!.webhookSecret,
      },
    })),
  };
}
