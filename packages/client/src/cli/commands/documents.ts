import { V1_INDEXES, type V1Index } from "@scangate/core";
import { refuseExtraArgs, requireArg, type Command, type CommandContext } from "../command";
import { UsageError } from "../exit-codes";
import { splitList } from "../settings";

const HOST_INDEXES = ["hosts", "host"];

export function v1IndexArg(value: string, command: string): V1Index {
  if ((V1_INDEXES as readonly string[]).includes(value)) return value as V1Index;
  throw new UsageError(
    `unknown index ${JSON.stringify(value)}: use ${[...V1_INDEXES, "hosts"].join(", ")}`,
    command,
  );
}

/** The asset kinds of the Platform API (v3), by the words the CLI accepts for each. */
type PlatformKind = "hosts" | "certificates" | "webproperties";
const PLATFORM_KINDS: Readonly<Record<string, PlatformKind>> = {
  hosts: "hosts",
  host: "hosts",
  certificates: "certificates",
  certificate: "certificates",
  webproperties: "webproperties",
  webproperty: "webproperties",
};

function platformKind(value: string, command: string): PlatformKind {
  const kind = Object.hasOwn(PLATFORM_KINDS, value) ? PLATFORM_KINDS[value] : undefined;
  if (kind) return kind;
  const hint =
    value === "ipv4" ? " (v3 calls them hosts)" : value === "websites" ? " (v3 has webproperties)" : "";
  throw new UsageError(
    `unknown asset kind ${JSON.stringify(value)} for --api v3${hint}: use hosts, certificates or webproperties`,
    command,
  );
}

const view: Command = {
  name: "view",
  summary: "one document: a host, a website or web property, or a certificate",
  usage: [
    "view ipv4|websites|certificates <id>",
    "view hosts <ip> [--at-time RFC3339]",
    "view hosts|certificates|webproperties <id> --api v3 [--at-time RFC3339]",
  ],
  details:
    "Legacy: v1 indexes take an IPv4 address, a domain or a SHA-256 fingerprint; `hosts` is the v2 host view.\n" +
    "With --api v3: the Platform asset (`{resource, extensions}`) of a host (IP address), a certificate\n" +
    "(SHA-256) or a web property (hostname:port, e.g. example.com:443); --at-time for hosts and web properties.",
  options: {
    "at-time": {
      type: "string",
      valueName: "TIME",
      description: "hosts (v2, v3) and web properties (v3): the asset as it was then (RFC 3339)",
    },
  },
  async run(ctx) {
    const index = requireArg(ctx, 0, "index (ipv4, websites, certificates or hosts; v3: webproperties)");
    const id = requireArg(ctx, 1, "document id");
    refuseExtraArgs(ctx, 2);
    const atTime = ctx.flags.string("at-time");
    if (ctx.api === "v3") {
      const kind = platformKind(index, "view");
      const platform = ctx.platform();
      const at = { ...(atTime ? { atTime } : {}), ...signal(ctx.signal) };
      if (kind === "certificates") {
        if (atTime) throw new UsageError("--at-time applies to hosts and web properties only", "view");
        await ctx.output.json(await platform.certificates.view(id, signal(ctx.signal)));
      } else if (kind === "hosts") await ctx.output.json(await platform.hosts.view(id, at));
      else await ctx.output.json(await platform.webproperties.view(id, at));
      return;
    }
    if (HOST_INDEXES.includes(index)) {
      await ctx.output.json(
        await ctx.client().hosts.view(id, { ...(atTime ? { atTime } : {}), ...signal(ctx.signal) }),
      );
      return;
    }
    if (PLATFORM_KINDS[index] === "webproperties")
      throw new UsageError("web properties are a Platform API asset: add --api v3", "view");
    if (atTime) throw new UsageError("--at-time applies to `view hosts` only", "view");
    await ctx.output.json(await ctx.client().view(v1IndexArg(index, "view"), id, signal(ctx.signal)));
  },
};

const bulk: Command = {
  name: "bulk",
  summary: "certificates by id, any number (v3: hosts and web properties too)",
  usage: [
    "bulk [certificates] <fingerprint>...",
    "bulk [certificates] < fingerprints.txt",
    "bulk hosts|certificates|webproperties <id>... --api v3 [--at-time RFC3339]",
  ],
  details:
    "Without ids (or with `-`) they are read from stdin, separated by spaces, commas or newlines.\n" +
    "Legacy: one object keyed by fingerprint (sent 50 at a time); unknown ones map to an error entry.\n" +
    "With --api v3: a JSON array of the assets found, in the order asked (sent 100 at a time; each asset\n" +
    "found is a credit); the ids not found are named on stderr.",
  options: {
    concurrency: {
      type: "string",
      valueName: "N",
      description: "requests in flight at once (default 4)",
    },
    "at-time": {
      type: "string",
      valueName: "TIME",
      description: "v3 hosts and web properties: as they were then (RFC 3339)",
    },
  },
  async run(ctx) {
    const first = ctx.args[0];
    const named = first !== undefined && Object.hasOwn(PLATFORM_KINDS, first);
    const kind: PlatformKind = named ? platformKind(first, "bulk") : "certificates";
    const args = named ? ctx.args.slice(1) : ctx.args;
    const fromStdin = args.length === 0 || (args.length === 1 && args[0] === "-");
    const ids = fromStdin ? splitList(await ctx.io.readStdin()) : args.flatMap(splitList);
    if (ids.length === 0) throw new UsageError("no ids given (as arguments or on stdin)", "bulk");
    const concurrency = ctx.flags.int("concurrency", 1, 32);
    const atTime = ctx.flags.string("at-time");
    const options = { ...(concurrency === undefined ? {} : { concurrency }), ...signal(ctx.signal) };
    if (ctx.api !== "v3") {
      if (kind !== "certificates") throw new UsageError(`bulk ${kind} needs --api v3`, "bulk");
      if (atTime) throw new UsageError("--at-time needs --api v3", "bulk");
      await ctx.output.json(await ctx.client().bulk(ids, options));
      return;
    }
    if (atTime && kind === "certificates")
      throw new UsageError("--at-time applies to hosts and web properties only", "bulk");
    const platform = ctx.platform();
    const at = atTime ? { atTime } : {};
    let found: { resource: unknown }[];
    let idOf: (resource: unknown) => string | undefined;
    if (kind === "hosts") {
      found = await platform.hosts.bulk(ids, { ...options, ...at });
      idOf = (r) => (r as { ip?: string }).ip?.toLowerCase();
    } else if (kind === "certificates") {
      found = await platform.certificates.bulk(ids, options);
      idOf = (r) => (r as { fingerprint_sha256?: string }).fingerprint_sha256?.toLowerCase();
    } else {
      found = await platform.webproperties.bulk(ids, { ...options, ...at });
      idOf = (r) => {
        const { hostname, port } = r as { hostname?: string; port?: number };
        return hostname === undefined || port === undefined ? undefined : `${hostname}:${port}`.toLowerCase();
      };
    }
    await ctx.output.json(found);
    const have = new Set(found.map((asset) => idOf(asset.resource)));
    const missing = [...new Set(ids)].filter((id) => !have.has(id.toLowerCase()));
    if (missing.length > 0 && !ctx.quiet) {
      await ctx.io.stderr.write(
        `scangate: ${missing.length} of ${new Set(ids).size} not found: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}\n`,
      );
    }
  },
};

const account: Command = {
  name: "account",
  summary: "the login and quota of the credential in use (v3: the organization)",
  usage: ["account", "account --api v3 [--org ID]"],
  details:
    "With --api v3: the Platform organization's details (free). Its id comes from --org or\n" +
    "SCANGATE_ORGANIZATION_ID; through scangate's edge it must be the edge's upstream organization.",
  options: {},
  async run(ctx) {
    refuseExtraArgs(ctx, 0);
    if (ctx.api === "v3") {
      requireOrganization(ctx);
      await ctx.output.json(
        await ctx.platform().accounts.organization({ includeMemberCounts: true, ...signal(ctx.signal) }),
      );
      return;
    }
    await ctx.output.json(await ctx.client().account(signal(ctx.signal)));
  },
};

/** Account calls name the organization in their path: a usage error says how to give it. */
export function requireOrganization(ctx: CommandContext): void {
  if (ctx.organizationId) return;
  throw new UsageError(
    `${ctx.command.name} --api v3 reads /v3/accounts/organizations/<id>: pass --org ID or set SCANGATE_ORGANIZATION_ID`,
    ctx.command.name,
  );
}

export function signal(value: AbortSignal | undefined): { signal?: AbortSignal } {
  return value ? { signal: value } : {};
}

export const documentCommands: readonly Command[] = [view, bulk, account];
