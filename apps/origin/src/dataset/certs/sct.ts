import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import { base64 } from "../encoding";
import { concat } from "./der";

/**
 * Signed certificate timestamps (RFC 6962 §3.2-3.3). SCTs are TLS presentation-language
 * structures, not ASN.1, so no X.509 library encodes them: this module writes and reads that
 * byte layout. The X.509 side (the extension's OCTET STRING) goes through @peculiar/asn1-schema.
 */

/** RFC 5246 HashAlgorithm.sha256 and SignatureAlgorithm.ecdsa: what the dataset's logs sign with. */
const HASH_SHA256 = 4;
const SIGNATURE_ECDSA = 3;
const SCT_VERSION_V1 = 0;
const SIGNATURE_TYPE_CERTIFICATE_TIMESTAMP = 0;
const ENTRY_TYPE_PRECERT = 1;

export interface Sct {
  version: number;
  logId: Uint8Array;
  /** Milliseconds since the epoch, as the log signed it. */
  timestamp: number;
  extensions: Uint8Array;
  /** The DigitallySigned struct: hash and signature algorithm bytes, then the length-prefixed signature. */
  signature: Uint8Array;
}

function uint(value: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let rest = BigInt(value);
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  if (rest !== 0n) throw new Error(`${value} does not fit in ${bytes} bytes`);
  return out;
}

/** A TLS `opaque<0..2^(8*lengthBytes)-1>`: the length, then the bytes. */
function opaque(bytes: Uint8Array, lengthBytes: number): Uint8Array {
  return concat([uint(bytes.length, lengthBytes), bytes]);
}

/**
 * The `digitally-signed` input of an SCT over a precert_entry: what a log signs, and what a
 * verifier rebuilds from the certificate (its TBS without the SCT list) and the issuer's key.
 */
export function precertTimestampInput(input: {
  timestamp: number;
  issuerKeyHash: Uint8Array;
  tbsWithoutScts: Uint8Array;
  extensions?: Uint8Array;
}): Uint8Array<ArrayBuffer> {
  if (input.issuerKeyHash.length !== 32) throw new Error("issuer key hash must be 32 bytes");
  return concat([
    uint(SCT_VERSION_V1, 1),
    uint(SIGNATURE_TYPE_CERTIFICATE_TIMESTAMP, 1),
    uint(input.timestamp, 8),
    uint(ENTRY_TYPE_PRECERT, 2),
    input.issuerKeyHash,
    opaque(input.tbsWithoutScts, 3),
    opaque(input.extensions ?? new Uint8Array(), 2),
  ]);
}

/** A DigitallySigned struct for an ECDSA-SHA256 signature (DER ECDSA-Sig-Value). */
export function ecdsaSha256Signed(derSignature: Uint8Array): Uint8Array {
  return concat([uint(HASH_SHA256, 1), uint(SIGNATURE_ECDSA, 1), opaque(derSignature, 2)]);
}

export function encodeSct(sct: Sct): Uint8Array {
  if (sct.logId.length !== 32) throw new Error("log id must be 32 bytes");
  return concat([
    uint(sct.version, 1),
    sct.logId,
    uint(sct.timestamp, 8),
    opaque(sct.extensions, 2),
    sct.signature,
  ]);
}

/** The extnValue of the SCT list extension: an OCTET STRING holding the TLS-encoded list. */
export function encodeSctListExtension(scts: Sct[]): Uint8Array<ArrayBuffer> {
  const list = opaque(concat(scts.map((sct) => opaque(encodeSct(sct), 2))), 2);
  return new Uint8Array(AsnConvert.serialize(new OctetString(list)));
}

class Reader {
  private offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.offset === this.bytes.length;
  }

  get position(): number {
    return this.offset;
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new Error("SCT: truncated");
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  uint(bytes: number): number {
    let value = 0;
    for (const byte of this.take(bytes)) value = value * 256 + byte;
    return value;
  }

  opaque(lengthBytes: number): Uint8Array {
    return this.take(this.uint(lengthBytes));
  }
}

function decodeSct(bytes: Uint8Array): Sct {
  const reader = new Reader(bytes);
  const version = reader.uint(1);
  if (version !== SCT_VERSION_V1) throw new Error(`SCT: unknown version ${version}`);
  const logId = reader.take(32);
  const timestamp = reader.uint(8);
  const extensions = reader.opaque(2);
  const signatureStart = reader.position;
  reader.take(2); // hash and signature algorithm
  reader.opaque(2);
  if (!reader.done) throw new Error("SCT: trailing bytes");
  return { version, logId, timestamp, extensions, signature: bytes.subarray(signatureStart) };
}

/** The SCTs of an SCT list extension's extnValue. */
export function decodeSctListExtension(extnValue: Uint8Array): Sct[] {
  const list = new Reader(new Uint8Array(AsnConvert.parse(extnValue, OctetString).buffer));
  const body = new Reader(list.opaque(2));
  if (!list.done) throw new Error("SCT list: trailing bytes");
  const out: Sct[] = [];
  while (!body.done) out.push(decodeSct(body.opaque(2)));
  if (out.length === 0) throw new Error("SCT list: empty");
  return out;
}

/** One SCT as ZCrypto's JSON writes it: base64 bytes, the timestamp in seconds, no empty extensions. */
export function sctDocument(sct: Sct): Record<string, unknown> {
  return {
    version: sct.version,
    log_id: base64(sct.logId),
    timestamp: Math.floor(sct.timestamp / 1000),
    ...(sct.extensions.length > 0 ? { extensions: base64(sct.extensions) } : {}),
    signature: base64(sct.signature),
  };
}
