import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../src/db/schema";

/**
 * A handful of hosts, certificates and websites written straight into the test D1, with
 * documents shaped like the generator's. Tests derive their expected numbers from the stored
 * rows (see dataset-facts.ts), never from constants here, so they hold for any seed.
 */

/** The day the current host documents were observed; an older version is valid before it. */
export const CURRENT_SINCE = "2024-05-15T00:00:00Z";
export const HISTORY_SINCE = "2024-05-01T00:00:00Z";

const CERT_A = "a".repeat(8) + "0123456789abcdef".repeat(3) + "aaaaaaaa";
const CERT_B = "b".repeat(8) + "0123456789abcdef".repeat(3) + "bbbbbbbb";
const CERT_C = "c".repeat(8) + "0123456789abcdef".repeat(3) + "cccccccc";
export const SEEDED_CERTIFICATES = [CERT_A, CERT_B, CERT_C];

interface ServiceSeed {
  port: number;
  transport: "TCP" | "UDP";
  name: string;
  certificate?: string;
  product?: string;
}

interface HostSeed {
  ip: string;
  asn: number;
  asName: string;
  prefix: string;
  country: string;
  countryCode: string;
  city: string;
  services: ServiceSeed[];
}

const HOSTS: HostSeed[] = [
  {
    ip: "1.1.1.1",
    asn: 13335,
    asName: "CLOUDFLARENET",
    prefix: "1.1.1.0/24",
    country: "United States",
    countryCode: "US",
    city: "San Francisco",
    services: [
      { port: 53, transport: "UDP", name: "DNS" },
      { port: 80, transport: "TCP", name: "HTTP", product: "cloudflare" },
      { port: 443, transport: "TCP", name: "HTTP", certificate: CERT_A, product: "cloudflare" },
    ],
  },
  {
    ip: "8.8.8.8",
    asn: 15169,
    asName: "GOOGLE",
    prefix: "8.8.8.0/24",
    country: "United States",
    countryCode: "US",
    city: "Mountain View",
    services: [
      { port: 53, transport: "UDP", name: "DNS" },
      { port: 443, transport: "TCP", name: "HTTP", certificate: CERT_B },
    ],
  },
  {
    ip: "9.9.9.9",
    asn: 19281,
    asName: "QUAD9-AS-1",
    prefix: "9.9.9.0/24",
    country: "Switzerland",
    countryCode: "CH",
    city: "Zurich",
    services: [{ port: 53, transport: "UDP", name: "DNS" }],
  },
  {
    ip: "45.33.32.156",
    asn: 63949,
    asName: "AKAMAI-LINODE-AP",
    prefix: "45.33.32.0/24",
    country: "United States",
    countryCode: "US",
    city: "Fremont",
    services: [
      { port: 22, transport: "TCP", name: "SSH", product: "openssh" },
      { port: 80, transport: "TCP", name: "HTTP", product: "apache" },
    ],
  },
  {
    ip: "93.184.216.34",
    asn: 15133,
    asName: "EDGECAST",
    prefix: "93.184.216.0/24",
    country: "United States",
    countryCode: "US",
    city: "Norwell",
    services: [
      { port: 80, transport: "TCP", name: "HTTP", product: "nginx" },
      { port: 443, transport: "TCP", name: "HTTP", certificate: CERT_A, product: "nginx" },
    ],
  },
  {
    ip: "185.199.108.153",
    asn: 54113,
    asName: "FASTLY",
    prefix: "185.199.108.0/22",
    country: "Netherlands",
    countryCode: "NL",
    city: "Amsterdam",
    services: [
      { port: 22, transport: "TCP", name: "SSH", product: "openssh" },
      { port: 25, transport: "TCP", name: "SMTP" },
      { port: 80, transport: "TCP", name: "HTTP", product: "varnish" },
    ],
  },
];

function ipToNumber(ip: string): number {
  return ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

function serviceDoc(host: HostSeed, service: ServiceSeed, observedAt: string) {
  return {
    port: service.port,
    transport_protocol: service.transport,
    service_name: service.name,
    extended_service_name: service.certificate ? "HTTPS" : service.name,
    _decoded: service.name.toLowerCase(),
    truncated: false,
    source_ip: "167.94.138.120",
    perspective_id: "PERSPECTIVE_NTT",
    observed_at: observedAt.replace("Z", ".123456789Z"),
    software: service.product
      ? [{ product: service.product, vendor: service.product, source: "OSI_APPLICATION_LAYER" }]
      : [],
    banner: `${service.name} banner of ${host.ip}:${service.port}`,
    ...(service.certificate ? { certificate: service.certificate } : {}),
    _encoding: { banner: "DISPLAY_UTF8" },
  };
}

function hostDoc(host: HostSeed, services: ServiceSeed[], at: string) {
  return {
    ip: host.ip,
    last_updated_at: at,
    autonomous_system_updated_at: at,
    autonomous_system: {
      asn: host.asn,
      bgp_prefix: host.prefix,
      country_code: host.countryCode,
      name: host.asName,
      description: `${host.asName} network`,
    },
    location_updated_at: at,
    location: {
      continent: host.countryCode === "US" ? "North America" : "Europe",
      country: host.country,
      country_code: host.countryCode,
      city: host.city,
      postal_code: "00000",
      registered_country: host.country,
      registered_country_code: host.countryCode,
      timezone: "UTC",
      coordinates: { latitude: 40.5, longitude: -3.25 },
    },
    services: services.map((service) => serviceDoc(host, service, at)),
  };
}

function v1HostDoc(host: HostSeed) {
  return {
    ip: host.ip,
    protocols: host.services.map((s) => `${s.port}/${s.name.toLowerCase()}`),
    location: { country: host.country, country_code: host.countryCode, city: host.city },
    autonomous_system: {
      asn: host.asn,
      name: host.asName,
      routed_prefix: host.prefix,
      country_code: host.countryCode,
    },
    updated_at: CURRENT_SINCE,
  };
}

function certificateDoc(sha256: string, names: string[], issuer: string, selfSigned: boolean) {
  return {
    raw: "MIIBszCCAVmgAwIBAgIUJq3Z",
    parsed: {
      fingerprint_md5: sha256.slice(0, 32),
      fingerprint_sha1: sha256.slice(0, 40),
      fingerprint_sha256: sha256,
      serial_number: String(parseInt(sha256.slice(0, 8), 16)),
      version: 3,
      names,
      issuer_dn: `CN=${issuer}`,
      subject_dn: `CN=${names[0] ?? issuer}`,
      issuer: { common_name: [issuer] },
      subject: { common_name: [names[0] ?? issuer] },
      validity: { start: "2024-01-01T00:00:00Z", end: "2025-01-01T00:00:00Z", length: 31622400 },
      signature: {
        self_signed: selfSigned,
        valid: true,
        value: "00",
        signature_algorithm: { name: "ECDSA-SHA256", oid: "1.2.840.10045.4.3.2" },
      },
      signature_algorithm: { name: "ECDSA-SHA256", oid: "1.2.840.10045.4.3.2" },
      subject_key_info: { fingerprint_sha256: sha256, key_algorithm: { name: "ECDSA" } },
    },
    "validation.nss.valid": !selfSigned,
    tags: selfSigned ? ["self-signed"] : ["dv", "trusted"],
  };
}

const CERTIFICATES = [
  {
    sha256: CERT_A,
    names: ["example.com", "www.example.com"],
    issuer: "Scangate Test CA",
    selfSigned: false,
  },
  { sha256: CERT_B, names: ["dns.google"], issuer: "Scangate Test CA", selfSigned: false },
  { sha256: CERT_C, names: ["localhost"], issuer: "localhost", selfSigned: true },
];

const WEBSITES = [
  { domain: "example.com", rank: 1, ip: "93.184.216.34", certificate: CERT_A },
  { domain: "dns.google", rank: 2, ip: "8.8.8.8", certificate: CERT_B },
  { domain: "one.one.one.one", rank: 3, ip: "1.1.1.1", certificate: CERT_A },
];

export async function seedSmallDataset(db: D1Database): Promise<void> {
  const orm = drizzle(db, { schema });
  const current = Date.parse(CURRENT_SINCE);
  const older = Date.parse(HISTORY_SINCE);
  let serviceId = 1;
  const statements = [];
  for (const host of HOSTS) {
    const doc = hostDoc(host, host.services, CURRENT_SINCE);
    statements.push(
      orm.insert(schema.hosts).values({
        ip: host.ip,
        ipNum: ipToNumber(host.ip),
        asn: host.asn,
        asName: host.asName,
        bgpPrefix: host.prefix,
        asCountryCode: host.countryCode,
        country: host.country,
        countryCode: host.countryCode,
        city: host.city,
        lastUpdatedAt: current,
        servicesCount: host.services.length,
        doc: JSON.stringify(doc),
        v1Doc: JSON.stringify(v1HostDoc(host)),
      }),
      // The host existed two weeks earlier without its last service.
      orm.insert(schema.hostHistory).values([
        {
          ip: host.ip,
          validFrom: older,
          validTo: current,
          doc: JSON.stringify(hostDoc(host, host.services.slice(0, -1), HISTORY_SINCE)),
        },
        { ip: host.ip, validFrom: current, validTo: null, doc: JSON.stringify(doc) },
      ]),
    );
    for (const service of host.services) {
      statements.push(
        orm.insert(schema.hostServices).values({
          id: serviceId++,
          ip: host.ip,
          port: service.port,
          transportProtocol: service.transport,
          serviceName: service.name,
          extendedServiceName: service.certificate ? "HTTPS" : service.name,
          softwareProduct: service.product ?? null,
          certificate: service.certificate ?? null,
          observedAt: current,
        }),
        orm
          .insert(schema.hostProtocols)
          .values({ ip: host.ip, protocol: `${service.port}/${service.name.toLowerCase()}` }),
      );
    }
  }
  for (const cert of CERTIFICATES) {
    const doc = certificateDoc(cert.sha256, cert.names, cert.issuer, cert.selfSigned);
    statements.push(
      orm.insert(schema.certificates).values({
        sha256: cert.sha256,
        sha1: doc.parsed.fingerprint_sha1,
        md5: doc.parsed.fingerprint_md5,
        tbsFingerprint: cert.sha256,
        spkiSubjectFingerprint: cert.sha256,
        spkiFingerprint: cert.sha256,
        serial: doc.parsed.serial_number,
        issuerDn: doc.parsed.issuer_dn,
        subjectDn: doc.parsed.subject_dn,
        issuerCommonName: cert.issuer,
        subjectCommonName: cert.names[0] ?? null,
        notBefore: Date.parse("2024-01-01T00:00:00Z"),
        notAfter: Date.parse("2025-01-01T00:00:00Z"),
        validityLength: 31622400,
        keyAlgorithm: "ECDSA",
        keyBits: 256,
        signatureAlgorithm: "ECDSA-SHA256",
        validationLevel: "DV",
        selfSigned: cert.selfSigned ? 1 : 0,
        signatureValid: 1,
        isCa: 0,
        trustedNss: cert.selfSigned ? 0 : 1,
        trustedApple: cert.selfSigned ? 0 : 1,
        trustedMicrosoft: cert.selfSigned ? 0 : 1,
        trustedGoogleCtPrimary: 0,
        precert: 0,
        zlintErrors: 0,
        parseStatus: "success",
        addedAt: older,
        updatedAt: current,
        doc: JSON.stringify(doc),
      }),
      ...cert.names.map((name) =>
        orm.insert(schema.certificateNames).values({ sha256: cert.sha256, name, inSan: 1 }),
      ),
      ...doc.tags.map((tag) => orm.insert(schema.certificateTags).values({ sha256: cert.sha256, tag })),
    );
  }
  for (const site of WEBSITES) {
    statements.push(
      orm.insert(schema.websites).values({
        domain: site.domain,
        alexaRank: site.rank,
        ip: site.ip,
        ipNum: ipToNumber(site.ip),
        certificate: site.certificate,
        updatedAt: current,
        doc: JSON.stringify({
          domain: site.domain,
          alexa_rank: site.rank,
          protocols: ["443/https"],
          ports: [443],
          updated_at: CURRENT_SINCE,
        }),
      }),
      orm.insert(schema.websiteProtocols).values({ domain: site.domain, protocol: "443/https" }),
    );
  }
  const [first, ...rest] = statements;
  if (first) await orm.batch([first, ...rest]);
}
