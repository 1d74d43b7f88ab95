import { bulkBodySchema, legacyCertificate } from "@scangate/core";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../cache/bulk-merge";
import type { UpstreamCall } from "./interface";
import { legacyError, legacyJson, type PlatformSession } from "./legacy-session";

// v1 certificates (view, bulk) translated to the Platform's certificate asset and its raw (PEM)
// form; the search is legacy-v1.ts's, with the other v1 indexes.

function jsonBody(call: UpstreamCall): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(call.body ?? new Uint8Array()));
  } catch {
    throw legacyError("bad_request", "v1", "request body must be JSON");
  }
}

const issueText = (issues: readonly { path: PropertyKey[]; message: string }[]) => {
  const issue = issues[0];
  return issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : undefined;
};

/** GET /v1/view/certificates/{sha256} ← the certificate asset and its PEM. */
export async function translateCertificateView(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const id = url.pathname.slice("/v1/view/certificates/".length);
  const [asset, raw] = await Promise.all([
    session.result("GET", `/v3/global/asset/certificate/${id}`, undefined, "v1"),
    session.send("GET", `/v3/global/asset/certificate/${id}/raw`),
  ]);
  const pem = raw.status === 200 ? raw.text : undefined;
  return legacyJson(
    legacyCertificate((asset as { resource?: unknown }).resource, pem, { now: session.now() }),
  );
}

/**
 * POST /v1/bulk/certificates ← the certificate assets and their PEMs, one call each: every
 * requested fingerprint keyed as asked, the unknown ones as the legacy unknown entry.
 */
export async function translateCertificateBulk(call: UpstreamCall, _url: URL, session: PlatformSession) {
  const parsed = bulkBodySchema.safeParse(jsonBody(call));
  if (!parsed.success) throw legacyError("bad_request", "v1", issueText(parsed.error.issues));
  const requested = parsed.data.fingerprints;
  const ids = [...new Set(requested.map((fp) => fp.toLowerCase()))];
  const [assets, raws] = await Promise.all([
    session.result("POST", "/v3/global/asset/certificate", { certificate_ids: ids }, "v1"),
    session.result("POST", "/v3/global/asset/certificate/raw", { certificate_ids: ids }, "v1"),
  ]);
  const pems = new Map<string, string>();
  for (const entry of Array.isArray(raws) ? raws : []) {
    const { certificate_id: id, pem } = entry as { certificate_id?: unknown; pem?: unknown };
    if (typeof id === "string" && typeof pem === "string") pems.set(id.toLowerCase(), pem);
  }
  const documents = new Map<string, unknown>();
  for (const asset of Array.isArray(assets) ? assets : []) {
    const resource = (asset as { resource?: { fingerprint_sha256?: unknown } }).resource;
    const fingerprint = resource?.fingerprint_sha256;
    if (typeof fingerprint !== "string") continue;
    const id = fingerprint.toLowerCase();
    documents.set(id, legacyCertificate(resource, pems.get(id), { now: session.now() }));
  }
  const answer: Record<string, unknown> = {};
  for (const fingerprint of requested) {
    answer[fingerprint] = documents.get(fingerprint.toLowerCase()) ?? UNKNOWN_CERTIFICATE_ENTRY;
  }
  return legacyJson(answer);
}
