import type { PartnerRegistration } from "../app/directory.js";
import { DUAL_KEY_WINDOW_MS } from "../domain/secret-rotation.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Partner registrations: one per (partner, airline). The regulator holds one with each airline; the
 * TripDesk registration is mid-rotation, its secret replaced two days before `now` (start of that UTC
 * day, so the window is stable within a day). Secrets are deterministic: DEVELOPMENT ONLY.
 */
export function demoPartnerRegistrations(now: number): PartnerRegistration[] {
  const rotatedAt = Math.floor(now / DAY_MS) * DAY_MS - 2 * DAY_MS;
  return [
    {
      clientId: "skyhub-zx",
      clientSecret: "demo-secret-skyhub-zx",
      partnerUrn: "urn:partner:skyhub",
      airlineUrn: "urn:airline:ZX",
      tier: 1,
      contact: { email: "integrations@skyhub.demo" },
      scopes: [
        "cases.read",
        "cases.events.subscribe",
        "bookings.read",
        "vouchers.read",
        "disruptions.events.subscribe",
        "disruptions.events.publish",
        "policies.read",
        "passenger.notify",
        "cases.priority.request",
        "wallet.events.subscribe",
      ],
    },
    {
      clientId: "regulator-zx",
      clientSecret: "demo-secret-regulator-zx",
      partnerUrn: "urn:partner:aero-regulator",
      airlineUrn: "urn:airline:ZX",
      tier: 2,
      scopes: ["cases.read", "disruptions.events.subscribe", "policies.read", "metrics.read"],
    },
    {
      clientId: "regulator-vq",
      clientSecret: "demo-secret-regulator-vq",
      partnerUrn: "urn:partner:aero-regulator",
      airlineUrn: "urn:airline:VQ",
      tier: 2,
      scopes: ["cases.read", "disruptions.events.subscribe", "policies.read", "metrics.read"],
    },
    {
      clientId: "tripdesk-vq",
      clientSecret: "demo-secret-tripdesk-vq-2",
      previousSecret: { value: "demo-secret-tripdesk-vq-1", acceptedUntil: rotatedAt + DUAL_KEY_WINDOW_MS },
      partnerUrn: "urn:partner:tripdesk",
      airlineUrn: "urn:airline:VQ",
      tier: 3,
      contact: { email: "ops@tripdesk.demo" },
      scopes: ["cases.read", "bookings.read", "vouchers.read", "cases.events.subscribe"],
    },
  ];
}
