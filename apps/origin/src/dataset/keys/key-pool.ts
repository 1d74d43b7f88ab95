import { p256, p384 } from "@noble/curves/nist.js";
import { sha256, sha384, sha512 } from "@noble/hashes/sha2.js";
import { toBase64Url } from "@scangate/core/http";
import type { Prng } from "../prng";
import { generateRsaJwk } from "./rsa-keygen";

/**
 * The dataset's signing keys. Key generation is slow, so the generator makes a small pool and
 * reuses it: CAs each get their own key, leaves share the leaf pool (many leaves, one SPKI each
 * per pool entry, as happens with real key reuse). All keys derive from the seed.
 *
 * Signatures: RSA certificates are signed by WebCrypto with RSASSA-PKCS1-v1_5, which is
 * deterministic. WebCrypto ECDSA draws a random nonce, so ECDSA signatures are made by
 * @noble/curves with RFC 6979 deterministic nonces instead, through `deterministicCrypto`
 * (a Crypto whose subtle.sign routes ECDSA keys of this pool to noble). Both kinds verify with
 * plain WebCrypto.
 */

export type KeySpec = { kind: "RSA"; bits: 1024 | 2048 } | { kind: "EC"; curve: "P-256" | "P-384" };

export interface PoolKey {
  spec: KeySpec;
  keys: CryptoKeyPair;
  /** Signing algorithm this key signs certificates with (hash matched to its strength). */
  signingAlgorithm: { name: string; hash: string };
  /** Bits of the public key (modulus length or curve size). */
  bits: number;
}

type SignAlgorithm = string | { name: string; hash?: string | { name: string } };

const ecPrivateScalars = new WeakMap<CryptoKey, { curve: "P-256" | "P-384"; scalar: Uint8Array }>();

async function rsaKey(bits: 1024 | 2048, rng: Prng): Promise<PoolKey> {
  const jwk = generateRsaJwk(bits, rng);
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const privateKey = await crypto.subtle.importKey("jwk", jwk, algorithm, true, ["sign"]);
  const publicJwk: JsonWebKey = { kty: "RSA", n: jwk.n, e: jwk.e, ext: true };
  const publicKey = await crypto.subtle.importKey("jwk", publicJwk, algorithm, true, ["verify"]);
  return { spec: { kind: "RSA", bits }, keys: { privateKey, publicKey }, signingAlgorithm: algorithm, bits };
}

async function ecKey(curve: "P-256" | "P-384", rng: Prng): Promise<PoolKey> {
  const ec = curve === "P-256" ? p256 : p384;
  const size = curve === "P-256" ? 32 : 48;
  // noble reduces a seed of 1.5x the curve size mod n: negligible bias, never zero.
  const scalar = ec.utils.randomSecretKey(rng.bytes(size + size / 2));
  const point = ec.getPublicKey(scalar, false);
  const x = point.slice(1, 1 + size);
  const y = point.slice(1 + size);
  const algorithm = { name: "ECDSA", namedCurve: curve };
  const jwk: JsonWebKey = { kty: "EC", crv: curve, x: toBase64Url(x), y: toBase64Url(y), ext: true };
  const publicKey = await crypto.subtle.importKey("jwk", jwk, algorithm, true, ["verify"]);
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    { ...jwk, d: toBase64Url(scalar) },
    algorithm,
    true,
    ["sign"],
  );
  ecPrivateScalars.set(privateKey, { curve, scalar });
  const hash = curve === "P-256" ? "SHA-256" : "SHA-384";
  return {
    spec: { kind: "EC", curve },
    keys: { privateKey, publicKey },
    signingAlgorithm: { name: "ECDSA", hash },
    bits: curve === "P-256" ? 256 : 384,
  };
}

export function createKey(spec: KeySpec, rng: Prng): Promise<PoolKey> {
  return spec.kind === "RSA" ? rsaKey(spec.bits, rng) : ecKey(spec.curve, rng);
}

function hashName(algorithm: SignAlgorithm): string {
  const hash = typeof algorithm === "object" ? (algorithm.hash ?? "SHA-256") : "SHA-256";
  return typeof hash === "string" ? hash : hash.name;
}

function digest(hash: string, data: Uint8Array): Uint8Array {
  switch (hash.toUpperCase()) {
    case "SHA-256":
      return sha256(data);
    case "SHA-384":
      return sha384(data);
    case "SHA-512":
      return sha512(data);
    default:
      throw new Error(`unsupported ECDSA hash ${hash}`);
  }
}

function toBytes(data: BufferSource): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/**
 * WebCrypto with deterministic ECDSA signing for this pool's keys (RFC 6979 via noble); every
 * other call goes to the platform's crypto. Pass it to @peculiar/x509's generator.
 */
export const deterministicCrypto: Crypto = (() => {
  const platform = crypto;
  const subtle = new Proxy(platform.subtle, {
    get(target, prop) {
      if (prop === "sign") {
        return async (algorithm: SignAlgorithm, key: CryptoKey, data: BufferSource) => {
          const ec = ecPrivateScalars.get(key);
          if (!ec) return target.sign(algorithm, key, data);
          const curve = ec.curve === "P-256" ? p256 : p384;
          const signature = curve.sign(digest(hashName(algorithm), toBytes(data)), ec.scalar, {
            prehash: false,
          });
          return signature.slice().buffer;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Proxy(platform, {
    get(target, prop) {
      if (prop === "subtle") return subtle;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
})();
