/**
 * IPv4 values for `ip` fields, which are stored as INTEGER columns: an address is one number,
 * a CIDR block the inclusive range of numbers it covers. IPv6 is not indexed.
 */
export interface Ipv4Range {
  low: number;
  high: number;
}

const OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ADDRESS = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
const PREFIX = /^(3[0-2]|[12]?\d)$/;
// Loose shape of an IPv6 literal, only to give it its own error message.
const IPV6_SHAPE = /^[0-9a-f]*:[0-9a-f:.]*(\/\d+)?$/i;

export function parseIpv4(text: string): number | null {
  const match = ADDRESS.exec(text);
  if (!match) return null;
  return match.slice(1, 5).reduce((sum, octet) => sum * 256 + Number(octet), 0);
}

export function looksLikeIpv6(text: string): boolean {
  return IPV6_SHAPE.test(text);
}

/** `1.2.3.4` → that address; `1.2.3.0/24` → the block (host bits ignored); else null. */
export function parseIpv4Range(text: string): Ipv4Range | null {
  const slash = text.indexOf("/");
  const address = parseIpv4(slash === -1 ? text : text.slice(0, slash));
  if (address === null) return null;
  if (slash === -1) return { low: address, high: address };
  const prefix = text.slice(slash + 1);
  if (!PREFIX.test(prefix)) return null;
  const size = 2 ** (32 - Number(prefix));
  const low = Math.floor(address / size) * size;
  return { low, high: low + size - 1 };
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}
