/**
 * A small embedded table of real autonomous systems with one real announced IPv4 prefix each,
 * and a city in the country the prefix is used in. Hosts are placed inside these prefixes,
 * weighted roughly by how much of the scanned internet each network hosts.
 */

export interface Network {
  asn: number;
  /** AS name as registries publish it. */
  name: string;
  description: string;
  /** Country the AS is registered in. */
  asCountryCode: string;
  prefix: string;
  weight: number;
  /** Hosting provider (mostly servers) or access network (mostly home devices). */
  kind: "hosting" | "access";
  location: {
    continent: string;
    country: string;
    countryCode: string;
    city: string;
    province: string;
    postalCode: string;
    timezone: string;
    latitude: number;
    longitude: number;
  };
}

const loc = (
  continent: string,
  country: string,
  countryCode: string,
  city: string,
  province: string,
  postalCode: string,
  timezone: string,
  latitude: number,
  longitude: number,
): Network["location"] => ({
  continent,
  country,
  countryCode,
  city,
  province,
  postalCode,
  timezone,
  latitude,
  longitude,
});

const NA = "North America";
const EU = "Europe";
const AS = "Asia";
const OC = "Oceania";
const SA = "South America";

export const NETWORKS: Network[] = [
  {
    asn: 16509,
    name: "AMAZON-02",
    description: "Amazon.com, Inc.",
    asCountryCode: "US",
    prefix: "3.80.0.0/12",
    weight: 14,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "Ashburn",
      "Virginia",
      "20149",
      "America/New_York",
      39.0438,
      -77.4874,
    ),
  },
  {
    asn: 16509,
    name: "AMAZON-02",
    description: "Amazon.com, Inc.",
    asCountryCode: "US",
    prefix: "3.120.0.0/14",
    weight: 5,
    kind: "hosting",
    location: loc(
      EU,
      "Germany",
      "DE",
      "Frankfurt am Main",
      "Hesse",
      "60313",
      "Europe/Berlin",
      50.1109,
      8.6821,
    ),
  },
  {
    asn: 15169,
    name: "GOOGLE",
    description: "Google LLC",
    asCountryCode: "US",
    prefix: "142.250.0.0/15",
    weight: 3,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "Mountain View",
      "California",
      "94043",
      "America/Los_Angeles",
      37.4056,
      -122.0775,
    ),
  },
  {
    asn: 396982,
    name: "GOOGLE-CLOUD-PLATFORM",
    description: "Google LLC",
    asCountryCode: "US",
    prefix: "34.64.0.0/10",
    weight: 9,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "Council Bluffs",
      "Iowa",
      "51501",
      "America/Chicago",
      41.2619,
      -95.8608,
    ),
  },
  {
    asn: 8075,
    name: "MICROSOFT-CORP-MSN-AS-BLOCK",
    description: "Microsoft Corporation",
    asCountryCode: "US",
    prefix: "20.64.0.0/10",
    weight: 8,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "Boydton",
      "Virginia",
      "23917",
      "America/New_York",
      36.6676,
      -78.3875,
    ),
  },
  {
    asn: 13335,
    name: "CLOUDFLARENET",
    description: "Cloudflare, Inc.",
    asCountryCode: "US",
    prefix: "104.16.0.0/13",
    weight: 6,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "San Francisco",
      "California",
      "94107",
      "America/Los_Angeles",
      37.7621,
      -122.3971,
    ),
  },
  {
    asn: 14061,
    name: "DIGITALOCEAN-ASN",
    description: "DigitalOcean, LLC",
    asCountryCode: "US",
    prefix: "159.65.0.0/16",
    weight: 5,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "North Bergen",
      "New Jersey",
      "07047",
      "America/New_York",
      40.793,
      -74.0247,
    ),
  },
  {
    asn: 24940,
    name: "HETZNER-AS",
    description: "Hetzner Online GmbH",
    asCountryCode: "DE",
    prefix: "88.198.0.0/16",
    weight: 5,
    kind: "hosting",
    location: loc(EU, "Germany", "DE", "Falkenstein", "Saxony", "08223", "Europe/Berlin", 50.4777, 12.3649),
  },
  {
    asn: 16276,
    name: "OVH",
    description: "OVH SAS",
    asCountryCode: "FR",
    prefix: "51.68.0.0/16",
    weight: 5,
    kind: "hosting",
    location: loc(EU, "France", "FR", "Roubaix", "Hauts-de-France", "59100", "Europe/Paris", 50.6942, 3.1746),
  },
  {
    asn: 63949,
    name: "AKAMAI-LINODE-AP",
    description: "Akamai Technologies, Inc.",
    asCountryCode: "US",
    prefix: "45.33.0.0/17",
    weight: 2,
    kind: "hosting",
    location: loc(
      NA,
      "United States",
      "US",
      "Fremont",
      "California",
      "94536",
      "America/Los_Angeles",
      37.5485,
      -121.9886,
    ),
  },
  {
    asn: 45102,
    name: "ALIBABA-CN-NET",
    description: "Alibaba US Technology Co., Ltd.",
    asCountryCode: "CN",
    prefix: "47.74.0.0/15",
    weight: 3,
    kind: "hosting",
    location: loc(
      AS,
      "Singapore",
      "SG",
      "Singapore",
      "Singapore",
      "018989",
      "Asia/Singapore",
      1.2897,
      103.8501,
    ),
  },
  {
    asn: 3320,
    name: "DTAG",
    description: "Deutsche Telekom AG",
    asCountryCode: "DE",
    prefix: "79.192.0.0/10",
    weight: 5,
    kind: "access",
    location: loc(
      EU,
      "Germany",
      "DE",
      "Bonn",
      "North Rhine-Westphalia",
      "53113",
      "Europe/Berlin",
      50.7374,
      7.0982,
    ),
  },
  {
    asn: 4134,
    name: "CHINANET-BACKBONE",
    description: "No.31,Jin-rong Street",
    asCountryCode: "CN",
    prefix: "116.224.0.0/12",
    weight: 7,
    kind: "access",
    location: loc(AS, "China", "CN", "Shanghai", "Shanghai", "200000", "Asia/Shanghai", 31.2222, 121.4581),
  },
  {
    asn: 4837,
    name: "CHINA169-BACKBONE",
    description: "CHINA UNICOM China169 Backbone",
    asCountryCode: "CN",
    prefix: "123.112.0.0/12",
    weight: 4,
    kind: "access",
    location: loc(AS, "China", "CN", "Beijing", "Beijing", "100000", "Asia/Shanghai", 39.9075, 116.3972),
  },
  {
    asn: 7922,
    name: "COMCAST-7922",
    description: "Comcast Cable Communications, LLC",
    asCountryCode: "US",
    prefix: "73.0.0.0/8",
    weight: 5,
    kind: "access",
    location: loc(
      NA,
      "United States",
      "US",
      "Chicago",
      "Illinois",
      "60602",
      "America/Chicago",
      41.8835,
      -87.6305,
    ),
  },
  {
    asn: 7018,
    name: "ATT-INTERNET4",
    description: "AT&T Services, Inc.",
    asCountryCode: "US",
    prefix: "12.0.0.0/8",
    weight: 3,
    kind: "access",
    location: loc(
      NA,
      "United States",
      "US",
      "Dallas",
      "Texas",
      "75201",
      "America/Chicago",
      32.7831,
      -96.8067,
    ),
  },
  {
    asn: 3215,
    name: "FranceTelecom-Orange",
    description: "Orange S.A.",
    asCountryCode: "FR",
    prefix: "90.0.0.0/9",
    weight: 3,
    kind: "access",
    location: loc(EU, "France", "FR", "Paris", "Ile-de-France", "75001", "Europe/Paris", 48.8534, 2.3488),
  },
  {
    asn: 2856,
    name: "BT-UK-AS",
    description: "British Telecommunications PLC",
    asCountryCode: "GB",
    prefix: "86.128.0.0/10",
    weight: 3,
    kind: "access",
    location: loc(EU, "United Kingdom", "GB", "London", "England", "EC1A", "Europe/London", 51.5085, -0.1257),
  },
  {
    asn: 4766,
    name: "KIXS-AS-KR",
    description: "Korea Telecom",
    asCountryCode: "KR",
    prefix: "175.192.0.0/10",
    weight: 3,
    kind: "access",
    location: loc(AS, "South Korea", "KR", "Seoul", "Seoul", "03187", "Asia/Seoul", 37.566, 126.9784),
  },
  {
    asn: 2516,
    name: "KDDI",
    description: "KDDI CORPORATION",
    asCountryCode: "JP",
    prefix: "106.128.0.0/10",
    weight: 3,
    kind: "access",
    location: loc(AS, "Japan", "JP", "Tokyo", "Tokyo", "100-0001", "Asia/Tokyo", 35.6895, 139.6917),
  },
  {
    asn: 1221,
    name: "ASN-TELSTRA",
    description: "Telstra Limited",
    asCountryCode: "AU",
    prefix: "1.128.0.0/11",
    weight: 2,
    kind: "access",
    location: loc(
      OC,
      "Australia",
      "AU",
      "Sydney",
      "New South Wales",
      "2000",
      "Australia/Sydney",
      -33.8679,
      151.2073,
    ),
  },
  {
    asn: 9498,
    name: "BBIL-AP",
    description: "BHARTI Airtel Ltd.",
    asCountryCode: "IN",
    prefix: "122.160.0.0/12",
    weight: 3,
    kind: "access",
    location: loc(AS, "India", "IN", "New Delhi", "Delhi", "110001", "Asia/Kolkata", 28.6358, 77.2245),
  },
  {
    asn: 28573,
    name: "Claro NXT Telecomunicacoes Ltda",
    description: "Claro NXT Telecomunicacoes Ltda",
    asCountryCode: "BR",
    prefix: "177.32.0.0/11",
    weight: 2,
    kind: "access",
    location: loc(
      SA,
      "Brazil",
      "BR",
      "Sao Paulo",
      "Sao Paulo",
      "01000-000",
      "America/Sao_Paulo",
      -23.5475,
      -46.6361,
    ),
  },
];

/** `a.b.c.d` to its unsigned 32-bit value. */
export function ipToNumber(ip: string): number {
  return ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

export function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** First address and size of a CIDR prefix. */
export function prefixRange(prefix: string): { first: number; size: number } {
  const [address = "0.0.0.0", bits = "32"] = prefix.split("/");
  const size = 2 ** (32 - Number(bits));
  return { first: ipToNumber(address), size };
}
