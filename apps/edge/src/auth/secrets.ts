// Identifiers and secrets of tenants.
//
// Secrets are 32 random bytes (256 bits) from the platform CSPRNG, so a plain SHA-256 is the
// right hash: slow KDFs (bcrypt, scrypt, PBKDF2) exist to protect low-entropy human passwords
// from guessing, and nobody can enumerate a 256-bit space. A fast hash also keeps the auth hot
// path cheap, which a per-request KDF would not.

import { textsEqual, toBase64Url } from "@scangate/core/http";

const encoder = new TextEncoder();

export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `<prefix>_` + 128 random bits in lower-case hex (our record ids: tnt_, aud_, ptk_). */
export function newRecordId(prefix: "tnt" | "aud" | "tag" | "cmt" | "ptk"): string {
  return `${prefix}_${hex(randomBytes(16))}`;
}

/** API ids look like the public service's (a UUID), which every client accepts as a user name. */
export function newApiId(): string {
  return crypto.randomUUID();
}

/** The `sgs_` prefix lets secret scanners recognise a leaked tenant secret. */
export function newApiSecret(): string {
  return `sgs_${toBase64Url(randomBytes(32))}`;
}

/**
 * A tenant's Platform (/v3) bearer token: 32 random bytes like the secrets, so the same SHA-256
 * storage applies; `sgt_` tells a secret scanner (and a person) it is a scangate token.
 */
export function newPlatformToken(): string {
  return `sgt_${toBase64Url(randomBytes(32))}`;
}

export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(secret));
  return hex(new Uint8Array(digest));
}

/**
 * Compares a presented secret with a stored hash in constant time. Both sides are hashed to
 * 32 bytes first, so neither the content nor the length of the secret leaks through timing.
 */
export async function secretMatchesHash(secret: string, storedHash: string): Promise<boolean> {
  return textsEqual(await hashSecret(secret), storedHash);
}
