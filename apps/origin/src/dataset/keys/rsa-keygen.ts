import { toBase64Url } from "@scangate/core/http";
import type { Prng } from "../prng";

/**
 * Deterministic RSA key generation from the dataset's Prng. WebCrypto's generateKey cannot take
 * a seed, so the dataset's test-only RSA keys are derived here (random probable primes by
 * Miller-Rabin, e = 65537) and imported into WebCrypto as JWK; every signature is then made by
 * WebCrypto. These keys protect nothing: they exist so the same seed gives the same DER.
 */

const SMALL_PRIMES: bigint[] = (() => {
  const out: bigint[] = [];
  for (let n = 3; out.length < 300; n += 2) {
    if (out.every((p) => BigInt(n) % p !== 0n)) out.push(BigInt(n));
  }
  return out;
})();

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1n) throw new Error("not invertible");
  return ((oldS % m) + m) % m;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function isProbablePrime(n: bigint, rng: Prng, rounds: number): boolean {
  for (const p of SMALL_PRIMES) {
    if (n === p) return true;
    if (n % p === 0n) return false;
  }
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  const bits = n.toString(2).length;
  for (let i = 0; i < rounds; i++) {
    const a = 2n + (rng.bigint(bits - 2) % (n - 4n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let composite = true;
    for (let r = 1; r < s; r++) {
      x = (x * x) % n;
      if (x === n - 1n) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

const E = 65537n;

function randomPrime(bits: number, rng: Prng): bigint {
  for (;;) {
    // Top two bits set so p*q has exactly 2*bits bits; odd.
    const candidate = rng.bigint(bits) | (1n << BigInt(bits - 2)) | 1n;
    if ((candidate - 1n) % E === 0n) continue;
    if (isProbablePrime(candidate, rng, 24)) return candidate;
  }
}

/** The big-endian bytes of a non-negative integer, as a JWK writes `n`, `e`, `d`, ... */
function integerBase64Url(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return toBase64Url(bytes);
}

/** An RSA private key of `bits` bits as a JWK (RS256 by default; callers pick the hash on import). */
export function generateRsaJwk(bits: number, rng: Prng): JsonWebKey {
  for (;;) {
    const p = randomPrime(bits / 2, rng);
    const q = randomPrime(bits / 2, rng);
    if (p === q) continue;
    const n = p * q;
    if (n.toString(2).length !== bits) continue;
    const lambda = ((p - 1n) * (q - 1n)) / gcd(p - 1n, q - 1n);
    if (gcd(E, lambda) !== 1n) continue;
    const d = modInverse(E, lambda);
    return {
      kty: "RSA",
      n: integerBase64Url(n),
      e: integerBase64Url(E),
      d: integerBase64Url(d),
      p: integerBase64Url(p),
      q: integerBase64Url(q),
      dp: integerBase64Url(d % (p - 1n)),
      dq: integerBase64Url(d % (q - 1n)),
      qi: integerBase64Url(modInverse(q, p)),
      ext: true,
    };
  }
}
