/**
 * The passenger host is a per-tenant subdomain (spec 1). On a development machine each demo airline
 * answers at `<code>.localhost` (curl and browsers send `*.localhost` to the loopback address) on
 * the passenger port, unless PASSENGER_TENANT_HOSTS says otherwise.
 */
export function demoPassengerHostName(airlineCode: string): string {
  return `${airlineCode.toLowerCase()}.localhost`;
}

/** A demo airline's own passenger base URL: the passenger base URL on its host name, when that URL is a localhost one. */
export function demoPassengerBaseUrl(passengerBaseUrl: string, airlineCode: string): string {
  const url = new URL(passengerBaseUrl);
  if (url.hostname !== "localhost") return passengerBaseUrl;
  url.hostname = demoPassengerHostName(airlineCode);
  return url.href.replace(/\/$/, "");
}
