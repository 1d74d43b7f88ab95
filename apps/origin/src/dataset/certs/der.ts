/**
 * A minimal DER walker for the byte spans the certificate document hashes exactly as encoded
 * (TBS, subject, SPKI, extensions): re-serialising a parsed structure could change the bytes
 * of real certificates, and these fingerprints are defined over the original encoding.
 */

export interface Tlv {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset just past the content. */
  end: number;
}

export function readTlv(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) throw new Error("DER: truncated");
  let cursor = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error("DER: unsupported length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[cursor + i] ?? 0);
    cursor += count;
  }
  const end = cursor + length;
  if (end > der.length) throw new Error("DER: length past end");
  return { tag, start: offset, contentStart: cursor, end };
}

/** The children of a constructed element. */
export function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.contentStart; offset < parent.end; ) {
    const child = readTlv(der, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

export function bytesOf(der: Uint8Array, tlv: Tlv): Uint8Array {
  return der.subarray(tlv.start, tlv.end);
}

export function contentOf(der: Uint8Array, tlv: Tlv): Uint8Array {
  return der.subarray(tlv.contentStart, tlv.end);
}

function encodeLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return [0x80 | bytes.length, ...bytes];
}

export function encodeTlv(tag: number, content: Uint8Array): Uint8Array {
  const head = [tag, ...encodeLength(content.length)];
  const out = new Uint8Array(head.length + content.length);
  out.set(head, 0);
  out.set(content, head.length);
  return out;
}

export function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Dotted OID from the content bytes of an OBJECT IDENTIFIER. */
export function decodeOid(content: Uint8Array): string {
  const first = content[0] ?? 0;
  const parts = [Math.min(2, Math.floor(first / 40)), first - Math.min(2, Math.floor(first / 40)) * 40];
  let value = 0;
  for (const byte of content.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

/** Unsigned big-endian integer bytes without leading zero padding. */
export function stripLeadingZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

/** The raw spans of a certificate's parts, located by position in the TBSCertificate. */
export interface CertificateSpans {
  tbs: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  spki: Uint8Array;
  /** Each extension's full encoding with its OID, in order. */
  extensions: { oid: string; bytes: Uint8Array }[];
  /** Tag + content of every TBS child, for re-encoding without some extensions. */
  tbsChildren: { tag: number; bytes: Uint8Array }[];
}

export function certificateSpans(der: Uint8Array): CertificateSpans {
  const cert = readTlv(der, 0);
  const [tbsTlv] = children(der, cert);
  if (!tbsTlv) throw new Error("DER: no TBSCertificate");
  const parts = children(der, tbsTlv);
  // With the explicit [0] version first: version, serial, sigAlg, issuer, validity, subject, spki.
  const base = parts[0]?.tag === 0xa0 ? 1 : 0;
  const at = (i: number): Tlv => {
    const tlv = parts[base + i];
    if (!tlv) throw new Error("DER: short TBSCertificate");
    return tlv;
  };
  const extensions: { oid: string; bytes: Uint8Array }[] = [];
  const extWrapper = parts.find((p) => p.tag === 0xa3);
  if (extWrapper) {
    const [sequence] = children(der, extWrapper);
    for (const ext of sequence ? children(der, sequence) : []) {
      const [oid] = children(der, ext);
      extensions.push({ oid: oid ? decodeOid(contentOf(der, oid)) : "", bytes: bytesOf(der, ext) });
    }
  }
  return {
    tbs: bytesOf(der, tbsTlv),
    issuer: bytesOf(der, at(2)),
    subject: bytesOf(der, at(4)),
    spki: bytesOf(der, at(5)),
    extensions,
    tbsChildren: parts.map((p) => ({ tag: p.tag, bytes: bytesOf(der, p) })),
  };
}

/** The TBSCertificate re-encoded without the extensions whose OIDs are listed. */
export function tbsWithoutExtensions(spans: CertificateSpans, dropOids: readonly string[]): Uint8Array {
  if (!spans.extensions.some((e) => dropOids.includes(e.oid))) return spans.tbs;
  const kept = spans.extensions.filter((e) => !dropOids.includes(e.oid)).map((e) => e.bytes);
  const rebuilt = spans.tbsChildren.flatMap((child) => {
    if (child.tag !== 0xa3) return [child.bytes];
    return kept.length > 0 ? [encodeTlv(0xa3, encodeTlv(0x30, concat(kept)))] : [];
  });
  return encodeTlv(0x30, concat(rebuilt));
}
