import { V1_INDEXES, type V1Index } from "@scangate/core";
import { refuseExtraArgs, requireArg, type Command } from "../command";
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

const view: Command = {
  name: "view",
  summary: "one document: a host (v1 ipv4 or v2 hosts), a website or a certificate",
  usage: ["view ipv4|websites|certificates <id>", "view hosts <ip> [--at-time RFC3339]"],
  details: "v1 indexes take an IPv4 address, a domain or a SHA-256 fingerprint; `hosts` is the v2 host view.",
  options: {
    "at-time": {
      type: "string",
      valueName: "TIME",
      description: "v2 hosts only: the host as it was then (RFC 3339)",
    },
  },
  async run(ctx) {
    const index = requireArg(ctx, 0, "index (ipv4, websites, certificates or hosts)");
    const id = requireArg(ctx, 1, "document id");
    refuseExtraArgs(ctx, 2);
    const atTime = ctx.flags.string("at-time");
    if (HOST_INDEXES.includes(index)) {
      await ctx.output.json(
        await ctx.client().hosts.view(id, { ...(atTime ? { atTime } : {}), ...signal(ctx.signal) }),
      );
      return;
    }
    if (atTime) throw new UsageError("--at-time applies to `view hosts` only", "view");
    await ctx.output.json(await ctx.client().view(v1IndexArg(index, "view"), id, signal(ctx.signal)));
  },
};

const bulk: Command = {
  name: "bulk",
  summary: "certificates by SHA-256 fingerprint, any number (sent 50 at a time)",
  usage: ["bulk <fingerprint>...", "bulk < fingerprints.txt"],
  details:
    "Without arguments (or with `-`) fingerprints are read from stdin, separated by spaces, commas or newlines.\n" +
    "Prints one object keyed by fingerprint; unknown ones map to an error entry.",
  options: {
    concurrency: {
      type: "string",
      valueName: "N",
      description: "requests of 50 in flight at once (default 4)",
    },
  },
  async run(ctx) {
    const fromStdin = ctx.args.length === 0 || (ctx.args.length === 1 && ctx.args[0] === "-");
    const fingerprints = fromStdin ? splitList(await ctx.io.readStdin()) : ctx.args.flatMap(splitList);
    if (fingerprints.length === 0)
      throw new UsageError("no fingerprints given (as arguments or on stdin)", "bulk");
    const concurrency = ctx.flags.int("concurrency", 1, 32);
    const result = await ctx.client().bulk(fingerprints, {
      ...(concurrency === undefined ? {} : { concurrency }),
      ...signal(ctx.signal),
    });
    await ctx.output.json(result);
  },
};

const account: Command = {
  name: "account",
  summary: "the login and quota of the credential in use",
  usage: ["account"],
  options: {},
  async run(ctx) {
    refuseExtraArgs(ctx, 0);
    await ctx.output.json(await ctx.client().account(signal(ctx.signal)));
  },
};

export function signal(value: AbortSignal | undefined): { signal?: AbortSignal } {
  return value ? { signal: value } : {};
}

export const documentCommands: readonly Command[] = [view, bulk, account];
