import { isDomainName } from "@scangate/core";

/**
 * The names a host answers for, from its current document: the names on the certificates its
 * services present (all of them, from the certificate index, as well as the leaf's summary in
 * the TLS record) and the host names its HTTP services were reached by or redirect to. Only
 * domain names count (not addresses or wildcard patterns); lowercase, each once, sorted.
 */

interface HostShape {
  services?: {
    certificate?: string;
    tls?: { certificates?: { leaf_data?: { names?: unknown } } };
    http?: { request?: { uri?: unknown }; response?: { headers?: Record<string, unknown> } };
  }[];
}

/** The certificate fingerprints (lowercase) the host's services present. */
export function presentedCertificates(doc: unknown): string[] {
  const services = (doc as HostShape).services ?? [];
  return [...new Set(services.flatMap((s) => (s.certificate ? [s.certificate.toLowerCase()] : [])))];
}

function hostnameOf(url: unknown): string | null {
  if (typeof url !== "string") return null;
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

export function hostNames(doc: unknown, certificateNames: ReadonlyMap<string, readonly string[]>): string[] {
  const names = new Set<string>();
  const add = (name: unknown) => {
    if (typeof name !== "string") return;
    const lower = name.toLowerCase();
    if (isDomainName(lower)) names.add(lower);
  };
  for (const service of (doc as HostShape).services ?? []) {
    if (service.certificate) certificateNames.get(service.certificate.toLowerCase())?.forEach(add);
    const leafNames = service.tls?.certificates?.leaf_data?.names;
    if (Array.isArray(leafNames)) leafNames.forEach(add);
    add(hostnameOf(service.http?.request?.uri));
    const location = service.http?.response?.headers?.Location;
    if (Array.isArray(location)) location.map(hostnameOf).forEach(add);
  }
  return [...names].sort();
}
