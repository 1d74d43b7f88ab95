import { md5 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64 } from "../encoding";
import { Prng } from "../prng";

/**
 * Fingerprints a scan derives from what a service sends: JARM, JA3S and JA4S of its TLS
 * stack, the hash of its banner, the favicon of its web page, the algorithms its SSH server
 * offers. Each is a function of the stack it describes, so two services running the same
 * software with the same settings share the fingerprint, as on the internet.
 */

const hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** The `sha256:<hex>` of a banner, as `banner_hashes` lists it (empty banners have none). */
export function bannerHash(banner: string): string {
  return bytesToHex(sha256(utf8ToBytes(banner)));
}

/** IANA code points of the cipher suites the dataset's TLS services select. */
const CIPHER_CODES: Record<string, string> = {
  TLS_AES_128_GCM_SHA256: "1301",
  TLS_AES_256_GCM_SHA384: "1302",
  TLS_CHACHA20_POLY1305_SHA256: "1303",
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: "c02b",
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: "c030",
  TLS_RSA_WITH_AES_128_CBC_SHA: "002f",
};

const TLS_CODES: Record<string, string> = { TLSv1_0: "10", TLSv1_1: "11", TLSv1_2: "12", TLSv1_3: "13" };

/** A TLS stack's fingerprints: the server software (or threat) and what it negotiated. */
export function tlsFingerprints(
  stack: string,
  version: string,
  cipher: string,
  http2: boolean,
): { jarm: string; ja3s: string; ja4s: string } {
  // JARM: 30 characters of cipher and version choices across ten probes, then a SHA-256 (32
  // characters) of the extensions the server answered with.
  const choices = hex(`jarm|${version}|${cipher}|${stack}`).slice(0, 30);
  const extensions = hex(`jarm-extensions|${stack}|${version}`).slice(0, 32);
  const extensionCount = version === "TLSv1_3" ? 2 : 4;
  const code = CIPHER_CODES[cipher] ?? "c02f";
  return {
    jarm: `${choices}${extensions}`,
    ja3s: bytesToHex(md5(utf8ToBytes(`${TLS_CODES[version] ?? "12"},${code},${stack}`))),
    ja4s: `t${TLS_CODES[version] ?? "12"}${String(extensionCount).padStart(2, "0")}${http2 ? "h2" : "00"}_${code}_${hex(`ja4s|${stack}|${version}`).slice(0, 12)}`,
  };
}

/** The `jarm` block of a TLS service (the Platform's `JarmScan`; v2 names `observed_at`). */
export function jarmBlock(fingerprint: string, observedAt: string): Record<string, unknown> {
  return {
    fingerprint,
    cipher_and_version_fingerprint: fingerprint.slice(0, 30),
    tls_extensions_sha256: fingerprint.slice(30),
    observed_at: observedAt,
  };
}

/** MurmurHash3 (x86, 32-bit, seed 0) as a signed integer: Shodan's favicon hash. */
function murmur3(bytes: Uint8Array): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = 0;
  const blocks = bytes.length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k =
      (bytes[i] ?? 0) |
      ((bytes[i + 1] ?? 0) << 8) |
      ((bytes[i + 2] ?? 0) << 16) |
      ((bytes[i + 3] ?? 0) << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const tail = bytes.length & 3;
  if (tail >= 3) k ^= (bytes[blocks + 2] ?? 0) << 16;
  if (tail >= 2) k ^= (bytes[blocks + 1] ?? 0) << 8;
  if (tail >= 1) {
    k ^= bytes[blocks] ?? 0;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * The favicon a web application serves (an icon of its own, the same for every install):
 * its hashes as `favicons` lists them. Shodan's hash is MurmurHash3 of the base64 text with a
 * newline every 76 characters, as Shodan computes it.
 */
export function favicon(application: string): Record<string, unknown> {
  const rng = new Prng(`favicon:${application}`);
  const icon = rng.bytes(318 + rng.int(0, 15) * 256);
  const encoded = `${(base64(icon).match(/.{1,76}/g) ?? []).join("\n")}\n`;
  return {
    name: "/favicon.ico",
    size: icon.length,
    md5_hash: bytesToHex(md5(icon)),
    sha256_hash: bytesToHex(sha256(icon)),
    shodan_hash: murmur3(utf8ToBytes(encoded)),
  };
}

interface SshStack {
  kex: string[];
  hostKeys: string[];
  ciphers: string[];
  macs: string[];
}

const OPENSSH_MODERN: SshStack = {
  kex: [
    "sntrup761x25519-sha512@openssh.com",
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256",
    "ecdh-sha2-nistp384",
    "diffie-hellman-group16-sha512",
    "diffie-hellman-group14-sha256",
    "kex-strict-s-v00@openssh.com",
  ],
  hostKeys: ["rsa-sha2-512", "rsa-sha2-256", "ecdsa-sha2-nistp256", "ssh-ed25519"],
  ciphers: [
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
  ],
  macs: [
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
    "hmac-sha2-256-etm@openssh.com",
    "hmac-sha2-512-etm@openssh.com",
    "hmac-sha1-etm@openssh.com",
  ],
};
const OPENSSH_OLD: SshStack = {
  kex: [
    "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group14-sha1",
  ],
  hostKeys: ["ssh-rsa", "rsa-sha2-512", "rsa-sha2-256", "ecdsa-sha2-nistp256", "ssh-ed25519"],
  ciphers: [
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes256-ctr",
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-cbc",
  ],
  macs: ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-256", "hmac-sha1"],
};
const DROPBEAR: SshStack = {
  kex: [
    "curve25519-sha256",
    "ecdh-sha2-nistp521",
    "diffie-hellman-group14-sha256",
    "kexguess2@matt.ucc.asn.au",
  ],
  hostKeys: ["ecdsa-sha2-nistp256", "ssh-rsa"],
  ciphers: ["aes128-ctr", "aes256-ctr"],
  macs: ["hmac-sha1", "hmac-sha2-256"],
};

/** What an SSH server offers in its KEXINIT and what it chose with the scanner. */
export function sshAlgorithms(software: string): {
  kex_init_message: Record<string, unknown>;
  algorithm_selection: Record<string, unknown>;
  hostKeyAlgorithm: string;
} {
  const old = /OpenSSH_(7\.|8\.0)|ROSSSH/.test(software);
  const stack = software.includes("dropbear") ? DROPBEAR : old ? OPENSSH_OLD : OPENSSH_MODERN;
  const direction = (cipher: string, mac: string) => ({ cipher, mac, compression: "none" });
  const cipher = stack.ciphers[0] ?? "aes128-ctr";
  const mac = stack.macs[0] ?? "hmac-sha1";
  const hostKeyAlgorithm = stack === DROPBEAR ? "ecdsa-sha2-nistp256" : "ssh-ed25519";
  return {
    // The server's side of the exchange (a server offers the same lists both ways).
    kex_init_message: {
      kex_algorithms: stack.kex,
      host_key_algorithms: stack.hostKeys,
      server_to_client_ciphers: stack.ciphers,
      server_to_client_macs: stack.macs,
      first_kex_follows: false,
    },
    algorithm_selection: {
      kex_algorithm: stack.kex[0],
      host_key_algorithm: hostKeyAlgorithm,
      client_to_server_alg_group: direction(cipher, mac),
      server_to_client_alg_group: direction(cipher, mac),
    },
    hostKeyAlgorithm,
  };
}
