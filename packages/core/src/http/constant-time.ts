import { timingSafeEqual } from "hono/utils/buffer";

/**
 * Equality of two strings of any length in time independent of their content: both are hashed
 * first, so neither where they differ nor their lengths leak (credentials, tokens).
 */
export function secretsEqual(a: string, b: string): Promise<boolean> {
  return timingSafeEqual(a, b);
}

/**
 * Equality of two byte strings in time independent of where they differ. The length is not
 * hidden: use it for values whose length is public (digests, MACs, a secret already verified).
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let i = 0; i < a.byteLength; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
