/**
 * The threats the dataset plants on a small minority of services: command-and-control
 * frameworks, remote-access trojans and phishing kits that hunters publish queries for, each
 * with the fingerprints those queries name (the framework's default TLS certificate, its JARM,
 * its HTTP answer, a Cobalt Strike beacon's configuration). A planted service carries the
 * Platform's `Threat` (SDK `Threat`: name, type, tactic, malware, actors, evidence).
 *
 * Exported whole so a threats listing can read the same catalogue the hosts were made from.
 * Fingerprints marked as published are the values hunters publish; the others are the
 * dataset's own, computed like any other service's.
 */

export type ThreatKind = "C2_SERVER" | "RAT" | "PHISHING_KIT" | "OFFENSIVE_TOOL";

export interface ThreatProfile {
  /** Stable id (the Platform's threat id in this dataset). */
  id: string;
  name: string;
  /** What it is, as the threats list describes it. */
  description: string;
  /** The day the threat joined the catalogue (the list's `added_at`). */
  added: string;
  /** Public write-ups: the project's own page, then its Malpedia entry where it has one. */
  references: string[];
  type: ThreatKind[];
  tactic: string[];
  malware: { id: string; primary_name: string; all_names: string[]; malpedia_id?: string };
  actors?: { id: string; primary_name: string; all_names: string[]; mitre_group_id?: string }[];
  /** Ports it is found listening on, most common first. */
  ports: number[];
  /** Speaks HTTP (false: a raw TLS listener, which scanning sees as an UNKNOWN service). */
  http: boolean;
  tls: boolean;
  /** Published JARM of its default TLS stack. */
  jarm?: string;
  /** Subject (= issuer) of its default self-signed certificate. */
  certificate?: [string, string][];
  /** What its default HTTP answer shows. */
  page?: { server?: string; title?: string; body?: string; headers?: Record<string, string> };
  /** Beacon configuration served on its staging endpoint (Cobalt Strike). */
  beacon?: true;
  /** Relative frequency among planted threats. */
  weight: number;
}

const C2 = { type: ["C2_SERVER"] as ThreatKind[], tactic: ["command_and_control"] };
const RAT = { type: ["RAT", "C2_SERVER"] as ThreatKind[], tactic: ["command_and_control"] };

const malware = (id: string, name: string, aliases: string[] = [], malpedia?: string) => ({
  id,
  primary_name: name,
  all_names: [name, ...aliases],
  ...(malpedia ? { malpedia_id: malpedia } : {}),
});

export const THREATS: readonly ThreatProfile[] = [
  {
    id: "cobalt-strike",
    name: "Cobalt Strike",
    description:
      "Commercial adversary-simulation framework whose team servers and Beacon implants are widely used by ransomware operators and state actors.",
    added: "2023-02-14",
    references: ["https://www.cobaltstrike.com/"],
    ...C2,
    malware: malware("cobalt-strike", "Cobalt Strike", ["CobaltStrike", "Beacon"], "win.cobalt_strike"),
    actors: [
      {
        id: "apt29",
        primary_name: "APT29",
        all_names: ["APT29", "Cozy Bear", "Midnight Blizzard"],
        mitre_group_id: "G0016",
      },
      { id: "fin7", primary_name: "FIN7", all_names: ["FIN7", "Carbon Spider"], mitre_group_id: "G0046" },
    ],
    ports: [443, 8443, 80, 50050],
    http: true,
    tls: true,
    jarm: "07d14d16d21d21d07c42d41d00041d24a458a375eef0c576d23a7bab9a9fb1",
    // The default keystore of the team server.
    certificate: [
      ["C", "Earth"],
      ["ST", "Cyberspace"],
      ["L", "Somewhere"],
      ["O", "cobaltstrike"],
      ["OU", "AdvancedPenTesting"],
      ["CN", "Major Cobalt Strike"],
    ],
    page: { title: "", body: "" },
    beacon: true,
    weight: 30,
  },
  {
    id: "sliver",
    name: "Sliver",
    description:
      "Open-source cross-platform command-and-control framework by Bishop Fox, used as a Cobalt Strike alternative.",
    added: "2023-03-08",
    references: ["https://github.com/BishopFox/sliver"],
    ...C2,
    malware: malware("sliver", "Sliver", ["BishopFox Sliver"], "win.sliver"),
    ports: [443, 8888, 31337],
    http: true,
    tls: true,
    jarm: "3fd21b20d00000021c43d21b21b43d41226dd5dfc615dd4a96265559485910",
    certificate: [
      ["C", "US"],
      ["ST", "Oregon"],
      ["L", "Portland"],
      ["O", "Partners LLC"],
      ["2.5.4.17", "9723"],
      ["CN", "localhost"],
    ],
    page: { body: "" },
    weight: 18,
  },
  {
    id: "metasploit",
    name: "Metasploit",
    description:
      "Penetration-testing framework; its handlers and Meterpreter listeners show up as command-and-control servers.",
    added: "2023-03-08",
    references: ["https://github.com/rapid7/metasploit-framework"],
    ...C2,
    type: ["C2_SERVER", "OFFENSIVE_TOOL"],
    malware: malware("metasploit", "Metasploit", ["Meterpreter"], "win.meterpreter"),
    ports: [443, 4444, 8443],
    http: true,
    tls: true,
    jarm: "07d14d16d21d21d00042d43d000000aa99ce74e2c6d013c745aa52b5cc042d",
    certificate: [
      ["O", "Rapid7"],
      ["CN", "MetasploitSelfSignedCA"],
    ],
    page: { title: "Metasploit", body: "<h1>Metasploit</h1>" },
    weight: 10,
  },
  {
    id: "mythic",
    name: "Mythic",
    description: "Collaborative, multi-platform red-team command-and-control framework with a web interface.",
    added: "2023-05-22",
    references: ["https://github.com/its-a-feature/Mythic"],
    ...C2,
    malware: malware("mythic", "Mythic", ["Apfell"]),
    ports: [7443],
    http: true,
    tls: true,
    certificate: [
      ["C", "US"],
      ["O", "Mythic"],
      ["CN", "mythic"],
    ],
    page: { title: "Mythic", body: '<div id="root"></div><script src="/static/mythic.js"></script>' },
    weight: 8,
  },
  {
    id: "havoc",
    name: "Havoc",
    description: "Open-source post-exploitation command-and-control framework whose implant is called Demon.",
    added: "2023-07-11",
    references: ["https://github.com/HavocFramework/Havoc"],
    ...C2,
    malware: malware("havoc", "Havoc", ["Havoc Framework", "Demon"], "win.havoc"),
    ports: [40056, 443],
    http: true,
    tls: true,
    page: { server: "", body: "" },
    weight: 6,
  },
  {
    id: "brute-ratel",
    name: "Brute Ratel C4",
    description:
      "Commercial adversary-simulation framework (Badger implants) abused after its cracked builds leaked.",
    added: "2023-04-03",
    references: ["https://bruteratel.com/"],
    ...C2,
    malware: malware("brute-ratel", "Brute Ratel C4", ["BRc4", "Badger"], "win.brute_ratel_c4"),
    ports: [443, 8443],
    http: true,
    tls: true,
    page: { body: "<html><body><h1>It works!</h1><p>Brute Ratel</p></body></html>" },
    weight: 5,
  },
  {
    id: "covenant",
    name: "Covenant",
    description: ".NET command-and-control framework with a Blazor web interface and Grunt implants.",
    added: "2023-05-22",
    references: ["https://github.com/cobbr/Covenant"],
    ...C2,
    malware: malware("covenant", "Covenant", ["Grunt"]),
    ports: [7443],
    http: true,
    tls: true,
    certificate: [["CN", "Covenant"]],
    page: {
      title: "Covenant",
      body: '<link href="css/covenant.css" rel="stylesheet"><script src="_framework/blazor.server.js"></script><app>Loading Blazor...</app>',
    },
    weight: 4,
  },
  {
    id: "poshc2",
    name: "PoshC2",
    description: "Proxy-aware command-and-control framework with PowerShell, C# and Python implants.",
    added: "2023-06-19",
    references: ["https://github.com/nettitude/PoshC2"],
    ...C2,
    malware: malware("poshc2", "PoshC2", ["PoshC2 Implant"], "ps1.poshc2"),
    ports: [443],
    http: true,
    tls: true,
    certificate: [
      ["C", "US"],
      ["ST", "Minnesota"],
      ["L", "Minnetonka"],
      ["O", "Pajfds"],
      ["OU", "Jethpro"],
      ["CN", "P18055077"],
    ],
    page: { server: "Apache", body: "<html><body><h1>It works!</h1></body></html>" },
    weight: 3,
  },
  {
    id: "deimos",
    name: "Deimos C2",
    description: "Open-source post-exploitation command-and-control framework written in Go.",
    added: "2023-09-05",
    references: ["https://github.com/DeimosC2/DeimosC2"],
    ...C2,
    malware: malware("deimos", "Deimos C2", ["DeimosC2"]),
    ports: [8443],
    http: true,
    tls: true,
    jarm: "00000000000000000041d00000041d9535d5979f591ae8e547c5e5743e5b64",
    certificate: [
      ["O", "Acme Co"],
      ["CN", "localhost"],
    ],
    page: { title: "Deimos C2", body: "<h1>Deimos C2</h1>" },
    weight: 2,
  },
  {
    id: "merlin",
    name: "Merlin",
    description:
      "Cross-platform post-exploitation command-and-control server written in Go, speaking HTTP/2 and HTTP/3.",
    added: "2023-09-05",
    references: ["https://github.com/Ne0nd0g/merlin"],
    ...C2,
    malware: malware("merlin", "Merlin", ["Merlin C2"]),
    ports: [443],
    http: true,
    tls: true,
    jarm: "29d21b20d29d29d21c41d21b21b41d494e0df9532e75299f15ba73156cee38",
    page: { body: "" },
    weight: 2,
  },
  {
    id: "nimplant",
    name: "NimPlant",
    description: "Lightweight first-stage command-and-control implant and server written in Nim and Python.",
    added: "2024-01-16",
    references: ["https://github.com/chvancooten/NimPlant"],
    ...C2,
    malware: malware("nimplant", "NimPlant"),
    ports: [80, 443],
    http: true,
    tls: false,
    page: { server: "NimPlant C2 Server", body: "" },
    weight: 2,
  },
  {
    id: "evilginx",
    name: "Evilginx",
    description:
      "Man-in-the-middle phishing framework that proxies real login pages to steal credentials and session cookies.",
    added: "2023-08-14",
    references: ["https://github.com/kgretzky/evilginx2"],
    type: ["PHISHING_KIT"],
    tactic: ["credential_access"],
    malware: malware("evilginx", "Evilginx", ["Evilginx2"]),
    ports: [443],
    http: true,
    tls: true,
    jarm: "20d14d20d21d20d20c20d14d20d20daddf8a68a1444c74b6dbe09910a511e6",
    page: { body: "" },
    weight: 4,
  },
  {
    id: "asyncrat",
    name: "AsyncRAT",
    description: "Open-source remote-access trojan distributed in commodity malware campaigns.",
    added: "2023-02-14",
    references: ["https://github.com/NYAN-x-CAT/AsyncRAT-C-Sharp"],
    ...RAT,
    malware: malware("asyncrat", "AsyncRAT", ["Async RAT"], "win.asyncrat"),
    ports: [6606, 7707, 8808],
    http: false,
    tls: true,
    certificate: [["CN", "AsyncRAT Server"]],
    weight: 6,
  },
  {
    id: "dcrat",
    name: "DcRat",
    description: "DarkCrystal RAT: a cheap, widely sold remote-access trojan forked from AsyncRAT.",
    added: "2023-10-02",
    references: [],
    ...RAT,
    malware: malware("dcrat", "DcRat", ["DarkCrystal RAT"], "win.dcrat"),
    ports: [8848, 6606],
    http: false,
    tls: true,
    certificate: [["CN", "DcRat Server"]],
    weight: 3,
  },
  {
    id: "quasar",
    name: "Quasar RAT",
    description:
      "Open-source remote-administration tool for Windows used as a remote-access trojan by several groups.",
    added: "2023-02-14",
    references: ["https://github.com/quasar/Quasar"],
    ...RAT,
    malware: malware("quasar", "Quasar RAT", ["QuasarRAT", "xRAT"], "win.quasar_rat"),
    ports: [4782],
    http: false,
    tls: true,
    certificate: [["CN", "Quasar Server CA"]],
    weight: 3,
  },
  {
    id: "bitrat",
    name: "BitRAT",
    description: "Commercial remote-access trojan sold on underground forums since 2020.",
    added: "2024-02-27",
    references: [],
    ...RAT,
    malware: malware("bitrat", "BitRAT", [], "win.bit_rat"),
    ports: [1234],
    http: false,
    tls: true,
    certificate: [["CN", "BitRAT"]],
    weight: 1,
  },
  {
    id: "orcus",
    name: "Orcus RAT",
    description:
      "Commercial remote-access trojan with a plugin system, sold as a remote-administration tool.",
    added: "2024-02-27",
    references: [],
    ...RAT,
    malware: malware("orcus", "Orcus RAT", ["Orcus"], "win.orcus_rat"),
    ports: [10134],
    http: false,
    tls: true,
    certificate: [["CN", "Orcus Server"]],
    weight: 1,
  },
];

export const THREATS_BY_ID: ReadonlyMap<string, ThreatProfile> = new Map(THREATS.map((t) => [t.id, t]));

/** Watermarks of cracked and leaked Cobalt Strike builds, as beacon configurations show them. */
export const COBALT_STRIKE_WATERMARKS: readonly number[] = [
  987654321, 391144938, 1359593325, 1234567890, 666666666, 305419896, 100000, 426352781,
];

/** The Platform's `Threat` for a service a profile was planted on. */
export function threatObject(profile: ThreatProfile, evidence: { data_path: string; found_value: string }[]) {
  return {
    id: profile.id,
    name: profile.name,
    type: profile.type,
    tactic: profile.tactic,
    source: "censys",
    confidence: 0.95,
    malware: profile.malware,
    ...(profile.actors ? { actors: profile.actors } : {}),
    evidence,
  };
}
