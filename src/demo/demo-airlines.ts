import type { Organization } from "../app/directory.js";

/**
 * Two fictional airlines (tenants) flying from real airports, with the airports' real coordinates.
 * Between them the demo airports fall under every passenger-rights regime the service knows: the US
 * DOT commitments (JFK, BOS, ORD), UK261 (LHR), EU261 (MAD) and ANAC Resolution 400 (GRU).
 */
export const ZEPHYR_AIR: Organization = {
  airlineUrn: "urn:airline:ZX",
  code: "ZX",
  name: "Zephyr Air (demo)",
  country: "US",
  // The embedded default's SMTP sink keeps on-call's e-mail; DEMO_ALERT_WEBHOOK_URL adds a webhook.
  alerting: { email: "oncall@zx.demo", webhookSecret: "demo-alerting-zx" },
  airports: [
    {
      code: "JFK",
      name: "John F. Kennedy International Airport",
      city: "New York",
      country: "US",
      lat: 40.6413,
      lon: -73.7781,
    },
    {
      code: "BOS",
      name: "Boston Logan International Airport",
      city: "Boston",
      country: "US",
      lat: 42.3656,
      lon: -71.0096,
    },
    {
      code: "ORD",
      name: "Chicago O'Hare International Airport",
      city: "Chicago",
      country: "US",
      lat: 41.9742,
      lon: -87.9073,
    },
  ],
};

export const VESPER_AIRWAYS: Organization = {
  airlineUrn: "urn:airline:VQ",
  code: "VQ",
  name: "Vesper Airways (demo)",
  /** Licensed in Spain: an EU carrier, so its flights into Madrid from outside the EU have EU261 too. */
  country: "ES",
  alerting: { email: "oncall@vq.demo", webhookSecret: "demo-alerting-vq" },
  airports: [
    {
      code: "LHR",
      name: "London Heathrow Airport",
      city: "London",
      country: "GB",
      lat: 51.47,
      lon: -0.4543,
    },
    {
      code: "MAD",
      name: "Adolfo Suárez Madrid-Barajas Airport",
      city: "Madrid",
      country: "ES",
      lat: 40.4983,
      lon: -3.5676,
    },
    {
      code: "GRU",
      name: "São Paulo/Guarulhos International Airport",
      city: "São Paulo",
      country: "BR",
      lat: -23.4356,
      lon: -46.4731,
    },
  ],
};

export const DEMO_AIRLINES: readonly Organization[] = [ZEPHYR_AIR, VESPER_AIRWAYS];
