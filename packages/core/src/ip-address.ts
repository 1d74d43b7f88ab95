// One spelling per address, so every spelling a client sends reaches the same stored rows.

/** An IPv4-mapped IPv6 address as the URL serialiser writes it: its IPv4 part in two hex groups. */
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The canonical spelling of an address `ipAddressSchema` accepts. IPv4 is returned as it is (the
 * schema admits no other spelling of one: no leading zeros). IPv6 gets RFC 5952's form: lower
 * case, leading zeros dropped, the longest run of two or more zero groups (the first of equal
 * runs) as `::`, and an IPv4-mapped address as `::ffff:a.b.c.d`.
 */
export function canonicalIpAddress(address: string): string {
  if (!address.includes(":")) return address;
  // The URL host serialiser (the parser zod's ipv6 check runs) writes RFC 5952's form, except
  // that it writes a mapped address's IPv4 part in hex.
  const host = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const mapped = MAPPED_HEX.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1] ?? "0", 16), parseInt(mapped[2] ?? "0", 16)];
  return `::ffff:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}
