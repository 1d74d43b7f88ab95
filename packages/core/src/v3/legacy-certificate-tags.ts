import { epochMs, list, num, obj, str, strings, type Json } from "./legacy-json";

/**
 * The v1 certificate fields that summarise others, computed from a Platform (v3) certificate
 * by the rules the legacy documents follow, so a translated document is never without them:
 *
 * - `tags`, in this order: the role (`root`, `intermediate` or `leaf`: a CA or not, self-signed
 *   or not), `self-signed`, `expired` / `not-yet-valid` / `unexpired` (at `now`), `trusted` (valid
 *   in a root store) / `was-trusted` / `untrusted`, the validation level (`dv`, `ov`, `ev`),
 *   `precert`, `ct` (in a CT log), `weak-key` (RSA under 2048 bits), `nss-root` (itself in the NSS
 *   store) and `seen-in-scan`;
 * - `metadata.source`: `root_store`, else `scan` when a scan saw it, else `ct`, else `unknown`;
 * - `parsed.__expanded_names`: the names plus, for each wildcard `*.x`, the bare `x`.
 */

/** The root stores a v3 certificate is validated against (v1's `google_ct_primary` is Chrome). */
const ROOT_STORE_NAMES = ["nss", "apple", "microsoft", "chrome"] as const;

function rootStores(certificate: Json): Json[] {
  const validation = obj(certificate.validation);
  return ROOT_STORE_NAMES.map((name) => obj(validation[name])).filter(
    (store) => Object.keys(store).length > 0,
  );
}

/** A certificate that is itself in the NSS store: a trusted path with no parent above it. */
function inNssStore(certificate: Json): boolean {
  const nss = obj(obj(certificate.validation).nss);
  return nss.had_trusted_path === true && list(nss.parents).length === 0;
}

function rsaBits(keyInfo: Json): number | undefined {
  return num(obj(keyInfo.rsa).length) ?? num(obj(keyInfo.rsa_public_key).length);
}

export function legacyCertificateTags(v3Certificate: unknown, now: number): string[] {
  const c = obj(v3Certificate);
  const parsed = obj(c.parsed);
  const isCa = obj(obj(parsed.extensions).basic_constraints).is_ca === true;
  const selfSigned = obj(parsed.signature).self_signed === true;
  const tags: string[] = [isCa ? (selfSigned ? "root" : "intermediate") : "leaf"];
  if (selfSigned) tags.push("self-signed");
  const validity = obj(parsed.validity_period);
  const notBefore = epochMs(str(validity.not_before));
  const notAfter = epochMs(str(validity.not_after));
  if (notAfter !== undefined && notAfter < now) tags.push("expired");
  else if (notBefore !== undefined && notBefore > now) tags.push("not-yet-valid");
  else if (notAfter !== undefined && notBefore !== undefined) tags.push("unexpired");
  const stores = rootStores(c);
  if (stores.some((store) => store.is_valid === true)) tags.push("trusted");
  else if (stores.some((store) => store.ever_valid === true)) tags.push("was-trusted");
  else tags.push("untrusted");
  const level = str(c.validation_level)?.toLowerCase();
  if (level === "dv" || level === "ov" || level === "ev") tags.push(level);
  if (c.precert === true) tags.push("precert");
  if (Object.keys(obj(c.ct)).length > 0) tags.push("ct");
  const keyInfo = obj(parsed.subject_key_info);
  const bits = rsaBits(keyInfo);
  if (str(obj(keyInfo.key_algorithm).name) === "RSA" && bits !== undefined && bits < 2048)
    tags.push("weak-key");
  if (inNssStore(c)) tags.push("nss-root");
  if (c.ever_seen_in_scan === true) tags.push("seen-in-scan");
  return tags;
}

/** Where the certificate was first found, as v1's `metadata.source` says it. */
export function legacyCertificateSource(v3Certificate: unknown): string {
  const c = obj(v3Certificate);
  if (inNssStore(c)) return "root_store";
  if (c.ever_seen_in_scan === true) return "scan";
  return Object.keys(obj(c.ct)).length > 0 ? "ct" : "unknown";
}

/** `names` plus, for each wildcard `*.x`, the bare `x` it also covers (first occurrence kept). */
export function expandedNames(names: unknown): string[] {
  const out = new Set(strings(names));
  for (const name of strings(names)) if (name.startsWith("*.")) out.add(name.slice(2));
  return [...out];
}
