import type { Network } from "./networks";

/**
 * Who holds each network of networks.ts and how it names its addresses: the WHOIS
 * organization and network records the regional registries publish for it (the Platform's
 * `whois`), and the pattern of its reverse DNS names (PTR records), for the networks that
 * name their addresses. One table keyed by AS number, so a host's whois always agrees with
 * its autonomous system.
 */

type Octets = readonly [number, number, number, number];

interface Registration {
  registry: "ARIN" | "RIPE NCC" | "APNIC" | "LACNIC";
  handle: string;
  name: string;
  street: string;
  city: string;
  state: string;
  postal_code: string;
  /** Domain of the abuse and NOC mailboxes. */
  domain: string;
  allocated: string;
  /** The reverse DNS name of an address, for networks that publish them. */
  ptr?: (o: Octets) => string;
}

const hex2 = (n: number) => n.toString(16).padStart(2, "0");
const pad3 = (n: number) => String(n).padStart(3, "0");

const REGISTRATIONS: Readonly<Record<number, Registration>> = {
  16509: {
    registry: "ARIN",
    handle: "AT-88-Z",
    name: "Amazon Technologies Inc.",
    street: "410 Terry Ave N.",
    city: "Seattle",
    state: "WA",
    postal_code: "98109",
    domain: "amazonaws.com",
    allocated: "2005-09-29",
    ptr: ([a, b, c, d]) =>
      a === 3 && b >= 120
        ? `ec2-${a}-${b}-${c}-${d}.eu-central-1.compute.amazonaws.com`
        : `ec2-${a}-${b}-${c}-${d}.compute-1.amazonaws.com`,
  },
  15169: {
    registry: "ARIN",
    handle: "GOGL",
    name: "Google LLC",
    street: "1600 Amphitheatre Parkway",
    city: "Mountain View",
    state: "CA",
    postal_code: "94043",
    domain: "google.com",
    allocated: "2000-03-30",
    ptr: ([, , c, d]) => `lga${(c % 40) + 10}s${(d % 60) + 10}-in-f${d % 16}.1e100.net`,
  },
  396982: {
    registry: "ARIN",
    handle: "GOOGL-2",
    name: "Google LLC",
    street: "1600 Amphitheatre Parkway",
    city: "Mountain View",
    state: "CA",
    postal_code: "94043",
    domain: "google.com",
    allocated: "2016-05-26",
    ptr: ([a, b, c, d]) => `${d}.${c}.${b}.${a}.bc.googleusercontent.com`,
  },
  8075: {
    registry: "ARIN",
    handle: "MSFT",
    name: "Microsoft Corporation",
    street: "One Microsoft Way",
    city: "Redmond",
    state: "WA",
    postal_code: "98052",
    domain: "microsoft.com",
    allocated: "1998-07-10",
  },
  13335: {
    registry: "ARIN",
    handle: "CLOUD14",
    name: "Cloudflare, Inc.",
    street: "101 Townsend Street",
    city: "San Francisco",
    state: "CA",
    postal_code: "94107",
    domain: "cloudflare.com",
    allocated: "2010-07-09",
  },
  14061: {
    registry: "ARIN",
    handle: "DO-13",
    name: "DigitalOcean, LLC",
    street: "101 Ave of the Americas",
    city: "New York",
    state: "NY",
    postal_code: "10013",
    domain: "digitalocean.com",
    allocated: "2012-05-14",
  },
  24940: {
    registry: "RIPE NCC",
    handle: "ORG-HOA1-RIPE",
    name: "Hetzner Online GmbH",
    street: "Industriestr. 25",
    city: "Gunzenhausen",
    state: "Bayern",
    postal_code: "91710",
    domain: "hetzner.com",
    allocated: "2003-06-03",
    ptr: ([a, b, c, d]) => `static.${d}.${c}.${b}.${a}.clients.your-server.de`,
  },
  16276: {
    registry: "RIPE NCC",
    handle: "ORG-OS3-RIPE",
    name: "OVH SAS",
    street: "2 rue Kellermann",
    city: "Roubaix",
    state: "Hauts-de-France",
    postal_code: "59100",
    domain: "ovh.net",
    allocated: "2004-03-10",
    ptr: ([a, b, c, d]) => `ip${d}.ip-${a}-${b}-${c}.eu`,
  },
  63949: {
    registry: "ARIN",
    handle: "LINOD",
    name: "Akamai Technologies, Inc.",
    street: "145 Broadway",
    city: "Cambridge",
    state: "MA",
    postal_code: "02142",
    domain: "linode.com",
    allocated: "2008-05-21",
    ptr: ([, , c, d]) => `li${c * 4 + 200}-${d}.members.linode.com`,
  },
  45102: {
    registry: "APNIC",
    handle: "ORG-ACL1-AP",
    name: "Alibaba US Technology Co., Ltd.",
    street: "969 West Wen Yi Road",
    city: "Hangzhou",
    state: "Zhejiang",
    postal_code: "311121",
    domain: "alibaba-inc.com",
    allocated: "2013-10-14",
  },
  3320: {
    registry: "RIPE NCC",
    handle: "ORG-DTAG1-RIPE",
    name: "Deutsche Telekom AG",
    street: "Friedrich-Ebert-Allee 140",
    city: "Bonn",
    state: "Nordrhein-Westfalen",
    postal_code: "53113",
    domain: "telekom.de",
    allocated: "1993-09-01",
    ptr: ([a, b, c, d]) => `p${hex2(a)}${hex2(b)}${hex2(c)}${hex2(d)}.dip0.t-ipconnect.de`,
  },
  4134: {
    registry: "APNIC",
    handle: "ORG-CT1-AP",
    name: "China Telecom",
    street: "No.31, Jin-rong Street",
    city: "Beijing",
    state: "Beijing",
    postal_code: "100140",
    domain: "chinatelecom.cn",
    allocated: "1999-10-15",
  },
  4837: {
    registry: "APNIC",
    handle: "ORG-CU1-AP",
    name: "China Unicom",
    street: "No.21, Financial Street",
    city: "Beijing",
    state: "Beijing",
    postal_code: "100033",
    domain: "chinaunicom.cn",
    allocated: "2000-07-14",
  },
  7922: {
    registry: "ARIN",
    handle: "CCCS",
    name: "Comcast Cable Communications, LLC",
    street: "1800 Bishops Gate Blvd",
    city: "Mount Laurel",
    state: "NJ",
    postal_code: "08054",
    domain: "comcast.net",
    allocated: "1996-04-26",
    ptr: ([a, b, c, d]) => `c-${a}-${b}-${c}-${d}.hsd1.pa.comcast.net`,
  },
  7018: {
    registry: "ARIN",
    handle: "ATTCO",
    name: "AT&T Services, Inc.",
    street: "208 S. Akard Street",
    city: "Dallas",
    state: "TX",
    postal_code: "75202",
    domain: "att.net",
    allocated: "1983-08-23",
    ptr: ([a, b, c, d]) => `${a}-${b}-${c}-${d}.lightspeed.dllstx.sbcglobal.net`,
  },
  3215: {
    registry: "RIPE NCC",
    handle: "ORG-FT2-RIPE",
    name: "Orange S.A.",
    street: "111 Quai du President Roosevelt",
    city: "Issy-les-Moulineaux",
    state: "Ile-de-France",
    postal_code: "92130",
    domain: "orange.com",
    allocated: "1996-03-14",
    ptr: ([a, b, c, d]) => `lfbn-par-1-${c * 4 + (d % 4)}-${d}.w${a}-${b}.abo.wanadoo.fr`,
  },
  2856: {
    registry: "RIPE NCC",
    handle: "ORG-BPIN1-RIPE",
    name: "British Telecommunications PLC",
    street: "81 Newgate Street",
    city: "London",
    state: "England",
    postal_code: "EC1A 7AJ",
    domain: "bt.net",
    allocated: "1994-02-10",
    ptr: ([a, b, c, d]) => `host${d}-${c}-${b}-${a}.range${a}-${b}.btcentralplus.com`,
  },
  4766: {
    registry: "APNIC",
    handle: "ORG-KT1-AP",
    name: "Korea Telecom",
    street: "90, Buljeong-ro",
    city: "Seongnam",
    state: "Gyeonggi-do",
    postal_code: "13606",
    domain: "kt.com",
    allocated: "1997-05-30",
  },
  2516: {
    registry: "APNIC",
    handle: "ORG-KC1-AP",
    name: "KDDI CORPORATION",
    street: "Garden Air Tower, 3-10-10 Iidabashi",
    city: "Tokyo",
    state: "Tokyo",
    postal_code: "102-8460",
    domain: "kddi.com",
    allocated: "1997-02-21",
    ptr: ([a, b, c, d]) => `KD${pad3(a)}${pad3(b)}${pad3(c)}${pad3(d)}.au-net.ne.jp`,
  },
  1221: {
    registry: "APNIC",
    handle: "ORG-TPL1-AP",
    name: "Telstra Limited",
    street: "242 Exhibition Street",
    city: "Melbourne",
    state: "Victoria",
    postal_code: "3000",
    domain: "telstra.net",
    allocated: "1995-11-13",
    ptr: ([a, b, c, d]) => `cpe-${a}-${b}-${c}-${d}.nsw.bigpond.net.au`,
  },
  9498: {
    registry: "APNIC",
    handle: "ORG-BAL1-AP",
    name: "Bharti Airtel Ltd.",
    street: "Airtel Center, Plot No. 16, Udyog Vihar Phase IV",
    city: "Gurugram",
    state: "Haryana",
    postal_code: "122015",
    domain: "airtel.in",
    allocated: "2001-01-23",
    ptr: ([a, b, c, d]) => `abts-north-dynamic-${d}.${c}.${b}.${a}.airtelbroadband.in`,
  },
  28573: {
    registry: "LACNIC",
    handle: "BR-CNTL-LACNIC",
    name: "Claro NXT Telecomunicacoes Ltda",
    street: "Rua Henri Dunant, 780",
    city: "Sao Paulo",
    state: "SP",
    postal_code: "04709-110",
    domain: "claro.com.br",
    allocated: "2002-08-19",
    ptr: ([a, b, c, d]) => `${a}-${b}-${c}-${d}.user3p.virtua.com.br`,
  },
};

function octets(ip: string): Octets {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split(".").map(Number);
  return [a, b, c, d];
}

function registration(network: Network): Registration {
  const found = REGISTRATIONS[network.asn];
  if (!found) throw new Error(`no registration for AS${network.asn}`);
  return found;
}

/** The Platform's `whois` of an address of `network`: its organization and network records. */
export function whoisRecord(network: Network): Record<string, unknown> {
  const r = registration(network);
  const [prefixAddress = "", length = "32"] = network.prefix.split("/");
  const contact = (role: string) => ({
    handle: `${role.toUpperCase()}-${r.handle}`,
    name: `${r.name} ${role}`,
    email: `${role}@${r.domain}`,
  });
  return {
    organization: {
      handle: r.handle,
      name: r.name,
      street: r.street,
      city: r.city,
      state: r.state,
      postal_code: r.postal_code,
      country: network.asCountryCode,
      abuse_contacts: [contact("abuse")],
    },
    network: {
      handle:
        r.registry === "ARIN"
          ? `NET-${prefixAddress.replace(/\./g, "-")}-1`
          : `${prefixAddress} - ${network.prefix}`,
      name: network.name,
      cidrs: [network.prefix],
      allocation_type:
        r.registry === "ARIN" ? "ALLOCATION" : Number(length) <= 12 ? "ALLOCATED PA" : "ASSIGNED PA",
      created: `${r.allocated}T00:00:00Z`,
      updated: `${r.allocated.slice(0, 4) === "2016" ? "2023" : "2022"}-06-15T00:00:00Z`,
    },
  };
}

/** The reverse DNS name of `ip` in `network`, when the network publishes one. */
export function reverseName(network: Network, ip: string): string | null {
  return registration(network).ptr?.(octets(ip)) ?? null;
}
