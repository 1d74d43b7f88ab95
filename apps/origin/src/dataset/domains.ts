import type { Prng } from "./prng";

/**
 * Seeded, realistic-looking (and fictional) domain and organisation names. They use real
 * public suffixes so names validate as domains; `.corp`, `.lan` and `.internal` names are made
 * only on purpose, for certificates of private CAs (the lint set flags them).
 */

const FIRST = [
  "blue",
  "north",
  "silver",
  "bright",
  "rapid",
  "green",
  "iron",
  "cloud",
  "red",
  "golden",
  "quiet",
  "urban",
  "clear",
  "alpine",
  "ocean",
  "summit",
  "prime",
  "swift",
  "lunar",
  "solar",
  "cedar",
  "maple",
  "coral",
  "amber",
  "nova",
  "delta",
  "vector",
  "pixel",
  "atlas",
  "harbor",
  "river",
  "stone",
  "bold",
  "true",
  "open",
  "smart",
];
const SECOND = [
  "falcon",
  "bridge",
  "works",
  "labs",
  "systems",
  "media",
  "logistics",
  "foods",
  "bank",
  "health",
  "travel",
  "studio",
  "market",
  "energy",
  "design",
  "security",
  "network",
  "shop",
  "capital",
  "motors",
  "pharma",
  "games",
  "hosting",
  "data",
  "mail",
  "books",
  "garden",
  "legal",
  "realty",
  "news",
  "apps",
  "cloud",
  "tech",
];
const TLDS: readonly (readonly [string, number])[] = [
  ["com", 40],
  ["net", 8],
  ["org", 6],
  ["io", 5],
  ["de", 6],
  ["fr", 3],
  ["co.uk", 4],
  ["nl", 2],
  ["jp", 3],
  ["cn", 3],
  ["com.br", 2],
  ["ru", 2],
  ["app", 2],
  ["dev", 2],
  ["cloud", 1],
  ["info", 2],
  ["in", 2],
  ["com.au", 2],
  ["kr", 1],
  ["it", 2],
  ["es", 2],
  ["ch", 1],
  ["se", 1],
  ["pl", 1],
];
const ORG_SUFFIX: Record<string, string> = {
  de: "GmbH",
  fr: "SAS",
  "co.uk": "Ltd",
  nl: "B.V.",
  jp: "K.K.",
  cn: "Co., Ltd.",
  "com.br": "Ltda",
  ru: "OOO",
  it: "S.r.l.",
  es: "S.L.",
  ch: "AG",
  se: "AB",
  pl: "Sp. z o.o.",
  "com.au": "Pty Ltd",
  in: "Pvt Ltd",
  kr: "Co., Ltd.",
};

export const PRIVATE_TLDS = ["corp", "lan", "internal"] as const;

export interface DomainName {
  /** Registered domain, e.g. `bluefalcon.de`. */
  domain: string;
  tld: string;
  /** Organisation that would own it, e.g. `Bluefalcon GmbH`. */
  organization: string;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export class DomainGenerator {
  private readonly used = new Set<string>();

  constructor(private readonly rng: Prng) {}

  /** A registered domain not handed out before. */
  next(): DomainName {
    for (let attempt = 0; ; attempt++) {
      const first = this.rng.pick(FIRST);
      const second = this.rng.pick(SECOND);
      const hyphen = this.rng.chance(0.25) ? "-" : "";
      const suffix = attempt > 20 || this.rng.chance(0.15) ? String(this.rng.int(2, 999)) : "";
      const tld = this.rng.weighted(TLDS);
      const label = `${first}${hyphen}${second}${suffix}`;
      const domain = `${label}.${tld}`;
      if (this.used.has(domain)) continue;
      this.used.add(domain);
      const orgName = `${capitalize(first)}${hyphen ? " " : ""}${hyphen ? capitalize(second) : second}`;
      return { domain, tld, organization: `${orgName} ${ORG_SUFFIX[tld] ?? "Inc."}` };
    }
  }

  /** A host name inside a private TLD, e.g. `intranet.bluefalcon.corp`. */
  privateName(): string {
    const label = `${this.rng.pick(FIRST)}${this.rng.pick(SECOND)}`;
    return `${this.rng.pick(["intranet", "vpn", "git", "wiki", "erp", "mail"])}.${label}.${this.rng.pick(PRIVATE_TLDS)}`;
  }
}

/** Country of a ccTLD, for OV/EV subjects; generic TLDs map to US. */
export function countryOfTld(tld: string): string {
  const cc = tld.split(".").pop() ?? "";
  const map: Record<string, string> = { uk: "GB", br: "BR", au: "AU" };
  return map[cc] ?? (cc.length === 2 ? cc.toUpperCase() : "US");
}
