import { env } from "cloudflare:workers";
import {
  LEGACY_CERTIFICATE_GAPS,
  LEGACY_IPV4_GAPS,
  LEGACY_WEBSITE_GAPS,
  legacyCertificate,
  legacyIpv4,
  legacyWebsite,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { datasetNow } from "./support/dataset-facts";
import { readCertificates, readHost, readV1Document } from "../src/services/documents";
import { certificatePem, v3Certificate } from "../src/services/v3-certificate";
import { presentedCertificates, v3Host } from "../src/services/v3-host";
import { readWebproperties } from "../src/services/v3-webproperty";
import { seedTestDataset } from "./seed-fixture";

/**
 * The legacy documents core builds from Platform (v3) documents, checked against the origin's
 * own legacy documents of the same hosts, certificates and websites: every document of the
 * generated test dataset, both faces read through the origin's services. They must be equal
 * except for the paths each mapping lists as gaps, and the two readings the ipv4 mapping
 * documents (an SMTP reply on one line, all of a leaf's names).
 */

type Json = Record<string, unknown>;

beforeAll(() => seedTestDataset());

async function column(sql: string): Promise<string[]> {
  const { results } = await env.DB.prepare(sql).all<{ value: string }>();
  return results.map((row) => row.value);
}

/** A copy of `doc` without `path` (dotted; `*` is any key at its level). */
function without(doc: unknown, path: string): unknown {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return doc;
  const [head = "", ...rest] = path.split(".");
  const out: Json = { ...(doc as Json) };
  for (const key of Object.keys(out)) {
    if (head !== "*" && key !== head) continue;
    if (rest.length === 0) delete out[key];
    else out[key] = without(out[key], rest.join("."));
  }
  return out;
}

const withoutAll = (doc: unknown, paths: readonly string[]) => paths.reduce(without, doc);

async function v3HostOf(ip: string): Promise<unknown> {
  const v2 = await readHost(env.DB, ip);
  const certificates = await readCertificates(env.DB, presentedCertificates(v2));
  return v3Host(v2, certificates);
}

/** What the ipv4 mapping reads differently, brought to the origin's reading. */
function originReading(translated: Json, original: Json): Json {
  const out: Json = { ...translated };
  for (const [port, blocks] of Object.entries(original)) {
    if (!/^\d+$/.test(port)) continue;
    for (const [name, block] of Object.entries(blocks as Json)) {
      const mine = (out[port] as Json | undefined)?.[name] as Json | undefined;
      if (!mine) continue;
      const theirs = block as Json;
      const copy: Json = JSON.parse(JSON.stringify(mine)) as Json;
      const ehlo = (theirs.starttls as Json | undefined)?.ehlo;
      if (ehlo !== undefined && copy.starttls) (copy.starttls as Json).ehlo = ehlo;
      const theirNames = ((theirs.tls as Json | undefined)?.certificate as Json | undefined)?.parsed as
        | Json
        | undefined;
      const myParsed = ((copy.tls as Json | undefined)?.certificate as Json | undefined)?.parsed as
        | Json
        | undefined;
      if (theirNames && myParsed) {
        // The origin's v1 documents keep the first 8 of a leaf's names; all of them are a superset.
        expect((myParsed.names as string[]).slice(0, 8)).toEqual(theirNames.names);
        myParsed.names = theirNames.names;
      }
      out[port] = { ...(out[port] as Json), [name]: copy };
    }
  }
  return out;
}

describe("v3 host → v1 ipv4 document", () => {
  it("gives the origin's own v1 document of every host, gaps aside", async () => {
    const ips = await column("select ip as value from hosts order by ip_num");
    expect(ips.length).toBeGreaterThan(100);
    for (const ip of ips) {
      const original = (await readV1Document(env.DB, "ipv4", ip)) as Json;
      const translated = legacyIpv4(await v3HostOf(ip)) as Json;
      expect(withoutAll(originReading(translated, original), LEGACY_IPV4_GAPS), ip).toEqual(
        withoutAll(original, LEGACY_IPV4_GAPS),
      );
    }
  });

  it("computes protocols and tags from the services, never leaving them empty", async () => {
    const [ip] = await column("select ip as value from hosts where v1_doc like '%/https%' limit 1");
    const doc = legacyIpv4(await v3HostOf(ip!)) as Json;
    expect(doc.protocols).toContainEqual(expect.stringMatching(/^\d+\/https$/));
    expect(doc.tags).toContain("https");
  });
});

describe("v3 certificate → v1 certificate document", () => {
  it("gives the origin's own v1 document of every certificate, tags included, gaps aside", async () => {
    const fingerprints = await column("select sha256 as value from certificates order by sha256");
    expect(fingerprints.length).toBeGreaterThan(100);
    const tagsSeen = new Set<string>();
    const now = await datasetNow();
    for (const fp of fingerprints) {
      const original = (await readV1Document(env.DB, "certificates", fp)) as Json;
      const v3 = v3Certificate(original);
      const translated = legacyCertificate(v3, certificatePem(original) ?? undefined, { now });
      expect(withoutAll(translated, LEGACY_CERTIFICATE_GAPS), fp).toEqual(
        withoutAll(original, LEGACY_CERTIFICATE_GAPS),
      );
      for (const tag of translated.tags ?? []) tagsSeen.add(tag);
    }
    // The dataset exercises every rule: trust, expiry, level, CT, roots and scans.
    for (const tag of ["root", "intermediate", "leaf", "trusted", "untrusted", "expired", "unexpired", "ct"])
      expect(tagsSeen).toContain(tag);
    for (const tag of ["dv", "nss-root", "seen-in-scan", "self-signed"]) expect(tagsSeen).toContain(tag);
  });
});

describe("v3 web properties → v1 websites document", () => {
  it("gives the origin's own v1 document of every website from its properties and host, gaps aside", async () => {
    const { results } = await env.DB.prepare("select domain, ip from websites order by domain").all<{
      domain: string;
      ip: string;
    }>();
    expect(results.length).toBeGreaterThan(5);
    for (const { domain, ip } of results) {
      const original = (await readV1Document(env.DB, "websites", domain)) as Json;
      const ports = Object.keys(original).filter((key) => /^\d+$/.test(key));
      const properties = await readWebproperties(
        env.DB,
        ports.map((port) => ({ hostname: domain, port: Number(port) })),
      );
      expect(properties.every((p) => p !== null)).toBe(true);
      const translated = legacyWebsite(domain, properties, await v3HostOf(ip)) as Json;
      expect(withoutAll(originReading(translated, original), LEGACY_WEBSITE_GAPS), domain).toEqual(
        withoutAll(original, LEGACY_WEBSITE_GAPS),
      );
    }
  });

  it("leaves the host's fields out without the host", async () => {
    const { results } = await env.DB.prepare("select domain from websites limit 1").all<{ domain: string }>();
    const domain = results[0]!.domain;
    const [property] = await readWebproperties(env.DB, [{ hostname: domain, port: 443 }]);
    const doc = legacyWebsite(domain, [property]) as Json;
    expect(doc.domain).toBe(domain);
    expect(doc.protocols).toEqual(["443/https"]);
    expect(doc).not.toHaveProperty("location");
    expect(doc).not.toHaveProperty("updated_at");
  });
});
