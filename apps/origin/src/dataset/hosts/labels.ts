import type { ThreatProfile } from "../threats";
import { software, type SoftwareEntry } from "./software";

/**
 * Labels, operating systems and hardware, read off what the services show: a service's labels
 * (the legacy vocabulary; cenql-fields' LABEL_VALUES gives the Platform's), a host's labels
 * (those of its services), and the device or system a banner or page identifies.
 */

/** What a service shows that labels and identification read. */
export interface ServiceClues {
  protocol: string;
  title?: string | null;
  /** The web application or device a page belongs to (http.ts `app`). */
  app?: string;
  threat?: ThreatProfile;
  software: readonly SoftwareEntry[];
}

const DEFAULT_TITLES = ["Welcome to nginx!", "Apache2 Ubuntu Default Page: It works", "IIS Windows Server"];

const APP_LABELS: Record<string, string[]> = {
  "MikroTik RouterOS": ["router", "network-administration"],
  "Synology DiskStation": ["nas", "file-sharing"],
  FortiGate: ["firewall", "vpn"],
  "NETGEAR Router": ["router"],
  "Hikvision Camera": ["camera", "iot"],
  Grafana: ["web-ui"],
  Jenkins: ["web-ui"],
};

export function serviceLabels(clues: ServiceClues): string[] {
  const labels = new Set<string>();
  switch (clues.protocol) {
    case "SSH":
    case "RDP":
    case "TELNET":
      labels.add("remote-access");
      break;
    case "MYSQL":
    case "POSTGRES":
    case "REDIS":
      labels.add("database");
      break;
    case "SMTP":
      labels.add("email");
      break;
    case "FTP":
      labels.add("file-sharing");
      break;
    case "KUBERNETES":
      labels.add("cloud");
      break;
  }
  const title = clues.title ?? "";
  if (title === "Login" || title.startsWith("401")) labels.add("login-page");
  if (title.startsWith("Index of /")) labels.add("open-dir");
  if (DEFAULT_TITLES.includes(title)) labels.add("default-landing-page");
  for (const label of APP_LABELS[clues.app ?? ""] ?? []) labels.add(label);
  if (clues.threat?.type.includes("C2_SERVER")) labels.add("c2");
  return [...labels].sort();
}

/** A host's labels: every label of its services, once. */
export function hostLabels(services: readonly { labels?: unknown }[]): string[] {
  const labels = new Set<string>();
  for (const service of services)
    if (Array.isArray(service.labels)) for (const label of service.labels) labels.add(String(label));
  return [...labels].sort();
}

/** Hardware a device page or banner identifies (CPE part `h`). */
const APP_HARDWARE: Record<string, [string, string]> = {
  "MikroTik RouterOS": ["MikroTik", "RouterBOARD"],
  "Synology DiskStation": ["Synology", "DiskStation"],
  FortiGate: ["Fortinet", "FortiGate"],
  "NETGEAR Router": ["NETGEAR", "Nighthawk Router"],
  "Hikvision Camera": ["Hikvision", "Network Camera"],
};

export function serviceHardware(clues: ServiceClues): SoftwareEntry[] {
  const known = APP_HARDWARE[clues.app ?? ""];
  if (known) return [software("h", known[0], known[1])];
  if (clues.protocol === "TELNET" && clues.software.some((s) => s.product === "BusyBox"))
    return [software("h", "Generic", "Embedded Linux Device")];
  return [];
}

/** Operating systems a service identifies: its software of CPE part `o`. */
export function serviceOperatingSystems(clues: ServiceClues): SoftwareEntry[] {
  const listed = clues.software.filter((s) => s.part === "o");
  if (listed.length > 0) return listed;
  if (clues.app === "MikroTik RouterOS") return [software("o", "MikroTik", "RouterOS", "7.12")];
  if (clues.app === "FortiGate") return [software("o", "Fortinet", "FortiOS")];
  if (clues.software.some((s) => s.vendor === "Microsoft")) return [software("o", "Microsoft", "Windows")];
  return [];
}

/**
 * The host's operating system and hardware: those of its services, the most specific first
 * (a version beats none); absent when no service identifies one.
 */
export function hostIdentity(services: readonly { operating_systems?: unknown; hardware?: unknown }[]): {
  operating_system?: SoftwareEntry;
  hardware?: SoftwareEntry;
} {
  const all = (key: "operating_systems" | "hardware"): SoftwareEntry[] =>
    services.flatMap((s) => (Array.isArray(s[key]) ? (s[key] as SoftwareEntry[]) : []));
  const best = (entries: SoftwareEntry[]): SoftwareEntry | undefined =>
    entries.find((e) => e.version !== undefined) ?? entries[0];
  const operating = best(all("operating_systems"));
  const hardware = best(all("hardware"));
  return {
    ...(operating ? { operating_system: operating } : {}),
    ...(hardware ? { hardware } : {}),
  };
}
