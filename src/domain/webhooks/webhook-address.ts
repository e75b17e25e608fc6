import { DomainError } from "../domain-error.js";

/**
 * Where the service may send webhooks (spec 6.1: TLS only), and where it must not (SSRF): a
 * partner's URL must not make the service call into its own network. https only; http only to a
 * loopback host while the deployment allows it (the embedded demo); never a private, link-local,
 * loopback (unless allowed), unspecified or cloud-metadata address, whatever name resolves to it.
 */
export interface WebhookAddressRules {
  /** WEBHOOK_ALLOW_LOOPBACK_HTTP: loopback hosts accepted, over http too. */
  allowLoopback: boolean;
}

export type AddressKind = "public" | "loopback" | "private" | "link-local" | "metadata" | "unspecified";

/** Host names that are cloud metadata services, whatever they resolve to. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

function refused(code: string, message: string): DomainError {
  return new DomainError("unprocessable", code, message);
}

/** The URL's host as resolvers take it (IPv6 without brackets). */
export function webhookHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

function isLoopbackName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * The URL, parsed and held to the rules that need no name resolution; the WHATWG parser has
 * already turned odd IPv4 spellings (`0x7f.1`, `2130706433`) into dotted quads.
 */
export function parseWebhookUrl(raw: string, rules: WebhookAddressRules): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("webhook-url-invalid", "The webhook URL is not an absolute URL");
  }
  if (url.username || url.password) {
    throw refused("webhook-url-invalid", "The webhook URL must not carry credentials");
  }
  const host = webhookHost(url);
  const loopback = isLoopbackName(host) || (isIP(host) !== 0 && addressKind(host) === "loopback");
  if (url.protocol === "http:" && !(loopback && rules.allowLoopback)) {
    throw refused("webhook-url-not-https", "Webhooks are sent over https only");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw refused("webhook-url-not-https", "Webhooks are sent over https only");
  }
  if (METADATA_HOSTS.has(host)) {
    throw refused("webhook-url-refused", "The webhook URL names a metadata service");
  }
  if (isLoopbackName(host) && !rules.allowLoopback) {
    throw refused("webhook-url-refused", "The webhook URL names a loopback host");
  }
  if (isIP(host) !== 0) assertAddressesAllowed(host, [host], rules);
  return url;
}

/** Refuses the host when any address it resolves to is not public (loopback only when allowed). */
export function assertAddressesAllowed(
  host: string,
  addresses: readonly string[],
  rules: WebhookAddressRules,
): void {
  if (addresses.length === 0) {
    throw refused("webhook-url-unresolved", `The webhook host ${host} does not resolve`);
  }
  for (const address of addresses) {
    const kind = addressKind(address);
    if (kind === "public" || (kind === "loopback" && rules.allowLoopback)) continue;
    throw refused(
      "webhook-url-refused",
      `The webhook host ${host} resolves to a ${kind} address (${address}); webhooks go to public addresses only`,
    );
  }
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** 4 or 6 for an IP address in the forms URLs and resolvers give, else 0. */
function isIP(text: string): 0 | 4 | 6 {
  const v4 = IPV4.exec(text);
  if (v4) return v4.slice(1).every((part) => Number(part) <= 255) ? 4 : 0;
  const address = text.split("%")[0] ?? "";
  if (!address.includes(":") || !/^[0-9a-fA-F:.]+$/.test(address)) return 0;
  const halves = address.split("::");
  if (halves.length > 2) return 0;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  const last = groups.at(-1) ?? "";
  const words = groups.length + (last.includes(".") ? 1 : 0);
  const wellFormed =
    groups.every(
      (group, i) => /^[0-9a-fA-F]{1,4}$/.test(group) || (i === groups.length - 1 && IPV4.test(group)),
    ) && (halves.length === 2 ? words < 8 : words === 8);
  return wellFormed ? 6 : 0;
}

/** What an IPv4 or IPv6 address is, for the rules above; anything unparsable counts as private. */
export function addressKind(address: string): AddressKind {
  const version = isIP(address);
  if (version === 4) return ipv4Kind(address.split(".").map(Number));
  if (version === 6) return ipv6Kind(address);
  return "private";
}

function ipv4Kind([a = 0, b = 0, c = 0, d = 0]: number[]): AddressKind {
  if (a === 169 && b === 254 && c === 169 && d === 254) return "metadata";
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  ) {
    return "private";
  }
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (`isIP` said it is one). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

function ipv6Kind(address: string): AddressKind {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embeddedV4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  if (g.every((x) => x === 0)) return "unspecified";
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 1) {
    return "loopback";
  }
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if ((firstFiveZero && (g5 === 0xffff || g5 === 0)) || (g0 === 0x64 && g1 === 0xff9b)) {
    return ipv4Kind(embeddedV4);
  }
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g7 === 0x254) return "metadata"; // AWS IMDS over IPv6
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xff00) === 0xff00) return "private"; // multicast
  return "public";
}
