import type { ScangateAdminClient } from "../admin";
import type { ScangateClient, ScangatePlatformClient } from "../client";
import type { FlagValues, OptionSpec } from "./argv";
import type { CliIO } from "./cli-io";
import { UsageError } from "./exit-codes";
import type { Output } from "./output";
import type { ApiChoice } from "./settings";

export interface Command {
  /** One or two words: `search`, `tenants create`. */
  name: string;
  summary: string;
  usage: string[];
  /** Paragraphs after the usage lines. */
  details?: string;
  options: Record<string, OptionSpec>;
  run(ctx: CommandContext): Promise<void>;
}

export interface CommandContext {
  command: Command;
  io: CliIO;
  args: string[];
  flags: Flags;
  output: Output;
  signal: AbortSignal | undefined;
  client(): ScangateClient;
  /** The Platform API (v3) client, with the bearer token and organization of the settings. */
  platform(): ScangatePlatformClient;
  admin(): ScangateAdminClient;
  /** The API the document and search commands speak (`--api`, SCANGATE_API). */
  api: ApiChoice;
  /** The Platform organization id of the settings, if any. */
  organizationId: string | undefined;
  quiet: boolean;
}

type Values = FlagValues;

/** Typed reads of parsed flags, with usage errors that name the flag. */
export class Flags {
  constructor(
    private readonly values: Values,
    private readonly command: string,
  ) {}

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === "string" ? value : undefined;
  }

  /** A repeatable flag whose values may also be comma lists: `--fields a,b --fields c`. */
  list(name: string): string[] | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (typeof value === "boolean") return undefined;
    const items = (Array.isArray(value) ? value : [value])
      .flatMap((item) => item.split(","))
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    return items.length > 0 ? items : undefined;
  }

  bool(name: string): boolean {
    return this.values[name] === true;
  }

  int(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..${max}`;
      throw new UsageError(
        `--${name} must be an integer ${range}, got ${JSON.stringify(text)}`,
        this.command,
      );
    }
    return value;
  }

  choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (!(choices as readonly string[]).includes(text)) {
      throw new UsageError(
        `--${name} must be one of ${choices.join(", ")}, got ${JSON.stringify(text)}`,
        this.command,
      );
    }
    return text as T;
  }
}

/** The positional at `index`, or a usage error naming what is missing. */
export function requireArg(ctx: CommandContext, index: number, what: string): string {
  const value = ctx.args[index];
  if (value === undefined || value === "") throw new UsageError(`missing ${what}`, ctx.command.name);
  return value;
}

export function refuseExtraArgs(ctx: CommandContext, expected: number): void {
  if (ctx.args.length > expected) {
    throw new UsageError(`unexpected argument ${JSON.stringify(ctx.args[expected])}`, ctx.command.name);
  }
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: {
    type: "string",
    valueName: "URL",
    description: "service root (env SCANGATE_URL; local.env EDGE_URL)",
  },
  "api-id": {
    type: "string",
    valueName: "ID",
    description: "API ID (env SCANGATE_API_ID; local.env DEMO_API_ID)",
  },
  secret: {
    type: "string",
    valueName: "SECRET",
    description: "API secret (env SCANGATE_API_SECRET; local.env DEMO_API_SECRET)",
  },
  api: {
    type: "string",
    valueName: "API",
    description: "v3 (the Platform API) or legacy (v1/v2, the default) (env SCANGATE_API)",
  },
  token: {
    type: "string",
    valueName: "TOKEN",
    description: "v3 bearer token (env SCANGATE_PLATFORM_TOKEN; local.env DEMO_PLATFORM_TOKEN)",
  },
  org: {
    type: "string",
    valueName: "ID",
    description: "v3 organization id, optional through the edge (env SCANGATE_ORGANIZATION_ID)",
  },
  timeout: { type: "string", valueName: "SECONDS", description: "give up on one request after this long" },
  "no-retry": { type: "boolean", description: "do not retry 429s, 5xx or network errors" },
  quiet: { type: "boolean", short: "q", description: "no progress or retry notes on stderr" },
  help: { type: "boolean", short: "h", description: "show help" },
};

export const CSV_OPTION: Record<string, OptionSpec> = {
  csv: { type: "boolean", description: "write CSV instead of JSON" },
};

export function commandHelp(command: Command): string {
  const options = { ...command.options, ...GLOBAL_OPTIONS };
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""}`;
    return `  ${flag.padEnd(30)} ${spec.description}${spec.multiple ? " (repeatable)" : ""}`;
  });
  const usage = command.usage.map((line, i) => `${i === 0 ? "usage: " : "       "}scangate ${line}`);
  return [
    ...usage,
    "",
    command.summary,
    ...(command.details ? ["", command.details] : []),
    "",
    "options:",
    ...rows,
    "",
  ].join("\n");
}

export function overallHelp(commands: readonly Command[]): string {
  const rows = commands.map((command) => `  ${command.name.padEnd(18)} ${command.summary}`);
  return [
    "usage: scangate <command> [arguments] [options]",
    "",
    "A client for scangate (and any Censys-compatible service). Output is JSON unless --csv.",
    "",
    "commands:",
    ...rows,
    "",
    "Run `scangate <command> --help` for a command's arguments and options.",
    "The service and credentials come from --url/--api-id/--secret, SCANGATE_URL/SCANGATE_API_ID/",
    "SCANGATE_API_SECRET, or .scangate/local.env as written by `pnpm start`.",
    "view, bulk, search, aggregate, account and credits speak the legacy API (v1/v2) unless --api v3",
    "(or SCANGATE_API=v3): then they call the Platform API (/v3) with the bearer token of --token,",
    "SCANGATE_PLATFORM_TOKEN or local.env DEMO_PLATFORM_TOKEN (and --org, SCANGATE_ORGANIZATION_ID).",
    "Exit codes: 0 ok, 2 usage, 3 API error, 4 authentication, 5 not found, 6 rate limit or quota,",
    "7 network, 1 unexpected, 130 interrupted.",
    "",
  ].join("\n");
}
