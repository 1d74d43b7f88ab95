import { sha256 } from "@noble/hashes/sha2.js";
import { createKey, deterministicCrypto, type PoolKey } from "../keys/key-pool";
import { Prng } from "../prng";
import { ecdsaSha256Signed, precertTimestampInput, type Sct } from "./sct";
import { AsnEcSignatureFormatter } from "./x509";

/**
 * The dataset's own Certificate Transparency logs: the logs named in certificates' `ct` maps
 * and in their SCTs. Each log (operator plus temporal shard, `google_argon_2025h2`) has its own
 * ECDSA P-256 key derived from the dataset seed and the log's name, so any part of the code (or
 * a test) that knows the seed gets the same keys; the log id is, as RFC 6962 §3.2 defines it, the
 * SHA-256 of the log's DER SubjectPublicKeyInfo.
 */

export const CT_LOG_OPERATORS = [
  "google_argon",
  "google_xenon",
  "cloudflare_nimbus",
  "digicert_wyvern",
  "letsencrypt_oak",
  "sectigo_sabre",
] as const;

export interface CtLog {
  name: string;
  key: PoolKey;
  /** DER SubjectPublicKeyInfo of the log's public key. */
  spki: Uint8Array;
  logId: Uint8Array;
}

export class CtLogs {
  private readonly logs = new Map<string, Promise<CtLog>>();

  constructor(private readonly seed: string) {}

  /** The log of that name, made on first use (order of use does not change the keys). */
  get(name: string): Promise<CtLog> {
    let log = this.logs.get(name);
    if (!log) {
      log = this.create(name);
      this.logs.set(name, log);
    }
    return log;
  }

  private async create(name: string): Promise<CtLog> {
    const key = await createKey(
      { kind: "EC", curve: "P-256" },
      new Prng(`scangate-ct-log:${this.seed}:${name}`),
    );
    const spki = new Uint8Array((await crypto.subtle.exportKey("spki", key.keys.publicKey)) as ArrayBuffer);
    return { name, key, spki, logId: sha256(spki) };
  }
}

/** Where and when a certificate was logged: the `ct` map's keys and `added_to_ct_at`. */
export interface CtSubmission {
  log: string;
  /** Milliseconds, whole seconds (the `ct` map and the SCT JSON both carry seconds). */
  timestamp: number;
}

/**
 * Two logs of the temporal shard the certificate's expiry falls in, each accepting it a minute
 * to an hour after notBefore (CAs log right after issuing, with notBefore at or just before).
 */
export function planSubmissions(rng: Prng, notBefore: number, notAfter: number): CtSubmission[] {
  const end = new Date(notAfter);
  const shard = `${end.getUTCFullYear()}h${end.getUTCMonth() < 6 ? 1 : 2}`;
  const notBeforeSeconds = Math.floor(notBefore / 1000) * 1000;
  return rng
    .sample([...CT_LOG_OPERATORS], 2)
    .sort()
    .map((operator) => ({
      log: `${operator}_${shard}`,
      timestamp: notBeforeSeconds + rng.int(60, 3600) * 1000,
    }));
}

const P256 = { name: "ECDSA", namedCurve: "P-256" };
const signatureFormatter = new AsnEcSignatureFormatter();

/**
 * The SCTs the logs return for a precertificate whose final TBS (without the SCT list) is
 * `tbsWithoutScts`, issued by the key whose SPKI hashes to `issuerKeyHash`.
 */
export async function signScts(
  logs: CtLogs,
  submissions: CtSubmission[],
  issuerKeyHash: Uint8Array,
  tbsWithoutScts: Uint8Array,
): Promise<Sct[]> {
  const out: Sct[] = [];
  for (const submission of submissions) {
    const log = await logs.get(submission.log);
    const input = precertTimestampInput({ timestamp: submission.timestamp, issuerKeyHash, tbsWithoutScts });
    const raw = await deterministicCrypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      log.key.keys.privateKey,
      input,
    );
    // WebCrypto signs ECDSA as r||s; TLS DigitallySigned carries the DER ECDSA-Sig-Value.
    const der = signatureFormatter.toAsnSignature(P256, raw);
    if (!der) throw new Error("ECDSA signature could not be DER-encoded");
    out.push({
      version: 0,
      logId: log.logId,
      timestamp: submission.timestamp,
      extensions: new Uint8Array(),
      signature: ecdsaSha256Signed(new Uint8Array(der)),
    });
  }
  return out;
}
