/** Where the CLI finds its service and credentials: flags, then environment, then local.env. */
export interface Settings {
  url: string | undefined;
  apiId: string | undefined;
  apiSecret: string | undefined;
  adminToken: string | undefined;
}

export interface SettingFlags {
  url?: string | undefined;
  "api-id"?: string | undefined;
  secret?: string | undefined;
  "admin-token"?: string | undefined;
}

/**
 * Flags win, then SCANGATE_* variables, then the keys `pnpm start` writes to
 * `.scangate/local.env` (the local edge and its demo tenant).
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
  };
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
