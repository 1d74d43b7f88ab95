import { UsageError } from "./exit-codes";

/** Which API the document and search commands speak: the legacy Search API (v1/v2) or the Platform API (v3). */
export type ApiChoice = "legacy" | "v3";

/** `--api` values: `v1`, `v2` and `legacy` all name the legacy Search API. */
export const API_CHOICES: Readonly<Record<string, ApiChoice>> = {
  legacy: "legacy",
  v1: "legacy",
  v2: "legacy",
  v3: "v3",
  platform: "v3",
};

/** Where the CLI finds its service and credentials: flags, then environment, then local.env. */
export interface Settings {
  url: string | undefined;
  apiId: string | undefined;
  apiSecret: string | undefined;
  adminToken: string | undefined;
  api: ApiChoice;
  /** The Platform (v3) bearer token. */
  platformToken: string | undefined;
  /** The Platform organization id (optional through the edge; needed by `credits`). */
  organizationId: string | undefined;
}

export interface SettingFlags {
  url?: string | undefined;
  "api-id"?: string | undefined;
  secret?: string | undefined;
  "admin-token"?: string | undefined;
  api?: string | undefined;
  token?: string | undefined;
  org?: string | undefined;
}

/**
 * Flags win, then SCANGATE_* variables, then the keys `pnpm start` writes to
 * `.scangate/local.env` (the local edge, its demo tenant and the tenant's Platform token).
 */
export function resolveSettings(
  flags: SettingFlags,
  env: Readonly<Record<string, string | undefined>>,
  localEnv: Readonly<Record<string, string>>,
): Settings {
  const pick = (...values: (string | undefined)[]) =>
    values.find((value) => value !== undefined && value !== "");
  return {
    url: pick(flags.url, env.SCANGATE_URL, localEnv.EDGE_URL),
    apiId: pick(flags["api-id"], env.SCANGATE_API_ID, localEnv.DEMO_API_ID),
    apiSecret: pick(flags.secret, env.SCANGATE_API_SECRET, localEnv.DEMO_API_SECRET),
    adminToken: pick(flags["admin-token"], env.SCANGATE_ADMIN_TOKEN, localEnv.ADMIN_TOKEN),
    api: apiChoice(flags.api, env.SCANGATE_API),
    platformToken: pick(flags.token, env.SCANGATE_PLATFORM_TOKEN, localEnv.DEMO_PLATFORM_TOKEN),
    organizationId: pick(flags.org, env.SCANGATE_ORGANIZATION_ID, localEnv.PLATFORM_ORGANIZATION_ID),
  };
}

/** `--api`, else SCANGATE_API, else the legacy API; anything else is a usage error naming its source. */
function apiChoice(flag: string | undefined, env: string | undefined): ApiChoice {
  const [text, source] =
    flag !== undefined && flag !== ""
      ? [flag, "--api"]
      : env !== undefined && env !== ""
        ? [env, "SCANGATE_API"]
        : [];
  if (text === undefined) return "legacy";
  const choice = Object.hasOwn(API_CHOICES, text.toLowerCase()) ? API_CHOICES[text.toLowerCase()] : undefined;
  if (!choice) throw new UsageError(`${source} must be v3 or legacy (v1, v2), got ${JSON.stringify(text)}`);
  return choice;
}

/** `KEY=value` lines; `#` comments and blank lines skipped; one pair of quotes stripped. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key, value = ""] = match as unknown as [string, string, string?];
    values[key] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return values;
}

/** Fingerprints from arguments or stdin: separated by whitespace or commas. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter((item) => item.length > 0);
}
