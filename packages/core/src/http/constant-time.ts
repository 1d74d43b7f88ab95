import { timingSafeEqual } from "hono/utils/buffer";

/**
 * Equality of two strings of any length in time independent of their content: both are hashed
 * first, so neither where they differ nor their lengths leak (credentials, tokens).
 */
export function secretsEqual(a: string, b: string): Promise<boolean> {
  return timingSafeEqual(a, b);
}

/**
 * Equality of two strings in time independent of where they differ, compared code unit by code
 * unit with no copy. The length is not hidden: use it for values whose length is public (digests,
 * MACs, a secret already verified).
 */
export function textsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
