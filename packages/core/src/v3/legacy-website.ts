import type { WebsiteDocument } from "../v1/documents";
import { latestScanMs } from "./legacy-host";
import { defined, isoSeconds, list, num, obj, str, type Json } from "./legacy-json";
import { legacyWebBlock } from "./legacy-v1-services";

/**
 * The Platform's web properties of one name (`example.com:443`, `example.com:80`, ...) as the
 * legacy v1 `websites` document of that name: `protocols` (`443/https`, `80/http`: HTTPS where
 * the property has TLS), `ports`, `tags`, the findings its properties show (WEBSITE_FINDINGS),
 * and one block per port (`legacy-v1-services.ts`).
 *
 * A web property does not say where its name is hosted beyond the address its endpoints were
 * reached at. The host at that address (a v3 `Host`, when the caller has it) gives the
 * website's `location`, `autonomous_system` and `updated_at` (the host's latest scan); without
 * it they are left out. `alexa_rank` has no Platform counterpart (LEGACY_WEBSITE_GAPS).
 */

/**
 * What a web property found, listed on the website (the legacy websites index had none of it,
 * but the Platform's web properties are searched by it): threats and the risks the Platform
 * judges (`Webproperty.threats`, `vulns`, `exposures`, `misconfigs`).
 */
export const WEBSITE_FINDINGS = ["threats", "vulns", "exposures", "misconfigs"] as const;

/** The v1 website paths a document translated from the Platform leaves out. */
export const LEGACY_WEBSITE_GAPS: readonly string[] = ["alexa_rank"];

/** The paths that come from the host at the website's address (left out without it). */
export const LEGACY_WEBSITE_HOST_PATHS: readonly string[] = ["location", "autonomous_system", "updated_at"];

interface Property {
  port: number;
  name: "http" | "https";
  source: Json;
}

function propertiesOf(webproperties: readonly unknown[]): Property[] {
  const out: Property[] = [];
  for (const entry of webproperties) {
    const source = obj(entry);
    const port = num(source.port);
    if (port === undefined) continue;
    out.push({ port, name: source.tls === undefined ? "http" : "https", source });
  }
  return out.sort((a, b) => a.port - b.port);
}

/** The address the properties' endpoints were reached at. */
function addressOf(properties: readonly Property[]): string | undefined {
  for (const { source } of properties) {
    for (const endpoint of list(source.endpoints)) {
      const ip = str(obj(endpoint).ip);
      if (ip !== undefined) return ip;
    }
  }
  return undefined;
}

/** A website's place, from the host it resolves to: fewer fields than a v1 host shows. */
function hostPlace(host: Json): Json {
  const location = obj(host.location);
  const routing = obj(host.autonomous_system);
  const updated = latestScanMs(list(host.services));
  return defined({
    location:
      host.location === undefined
        ? undefined
        : defined({
            continent: str(location.continent),
            country: str(location.country),
            country_code: str(location.country_code),
            city: str(location.city),
          }),
    autonomous_system:
      host.autonomous_system === undefined
        ? undefined
        : defined({ asn: num(routing.asn), name: str(routing.name), routed_prefix: str(routing.bgp_prefix) }),
    updated_at: updated === undefined ? undefined : isoSeconds(updated),
  });
}

/**
 * `hostname` and its web properties (v3 `Webproperty` resources, any order; properties of
 * other names are the caller's mistake and are not checked) as the v1 website document.
 */
export function legacyWebsite(
  hostname: string,
  webproperties: readonly unknown[],
  host?: unknown,
): WebsiteDocument {
  const properties = propertiesOf(webproperties);
  const protocols = properties.map((p) => `${p.port}/${p.name}`).sort();
  const findings = WEBSITE_FINDINGS.map((key) => {
    const found = properties.flatMap((p) => list(p.source[key]));
    return [key, found.length > 0 ? found : undefined] as const;
  });
  const blocks: Json = {};
  for (const { port, name, source } of properties) {
    blocks[String(port)] = { ...obj(blocks[String(port)]), [name]: legacyWebBlock(source) };
  }
  return defined({
    domain: hostname.toLowerCase(),
    ip: addressOf(properties) ?? str(obj(host).ip),
    protocols,
    ports: [...new Set(properties.map((p) => p.port))],
    tags: [...new Set(properties.map((p) => p.name))].sort(),
    ...(host === undefined ? {} : hostPlace(obj(host))),
    ...Object.fromEntries(findings),
    ...blocks,
  });
}
