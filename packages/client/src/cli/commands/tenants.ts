import { TENANT_PERIODS, type TenantCreateBody, type TenantPatchBody } from "@scangate/core";
import { CSV_OPTION, refuseExtraArgs, requireArg, type Command, type CommandContext } from "../command";
import type { OptionSpec } from "../argv";
import { UsageError } from "../exit-codes";
import { signal } from "./documents";

// The edge's admin API (/admin/tenants), authorised by its ADMIN_TOKEN.

const ADMIN_TOKEN: Record<string, OptionSpec> = {
  "admin-token": {
    type: "string",
    valueName: "TOKEN",
    description: "the edge's ADMIN_TOKEN (env SCANGATE_ADMIN_TOKEN; local.env ADMIN_TOKEN)",
  },
};

const FIELDS: Record<string, OptionSpec> = {
  name: { type: "string", valueName: "NAME", description: "display name" },
  email: { type: "string", valueName: "EMAIL", description: "contact address" },
  allowance: { type: "string", valueName: "N", description: "queries per period" },
  period: { type: "string", valueName: "PERIOD", description: `quota period: ${TENANT_PERIODS.join(", ")}` },
  tier: {
    type: "string",
    valueName: "TIER",
    description: "burst rate tier (e.g. low, standard, high, unlimited)",
  },
};

function tenantFields(ctx: CommandContext): TenantPatchBody {
  const name = ctx.flags.string("name");
  const email = ctx.flags.string("email");
  const allowance = ctx.flags.int("allowance", 1);
  const period = ctx.flags.choice("period", TENANT_PERIODS);
  const tier = ctx.flags.string("tier");
  return {
    ...(name === undefined ? {} : { name }),
    ...(email === undefined ? {} : { email }),
    ...(allowance === undefined ? {} : { allowance }),
    ...(period === undefined ? {} : { period }),
    ...(tier === undefined ? {} : { tier }),
  };
}

function idCommand(
  name: string,
  summary: string,
  run: (ctx: CommandContext, id: string) => Promise<void>,
  options: Record<string, OptionSpec> = {},
): Command {
  return {
    name: `tenants ${name}`,
    summary,
    usage: [
      `tenants ${name} <tenant_id>${Object.keys(options)
        .map((o) => ` [--${o}${options[o]?.type === "string" ? ` ${options[o]?.valueName ?? "VALUE"}` : ""}]`)
        .join("")}`,
    ],
    options: { ...options, ...ADMIN_TOKEN },
    async run(ctx) {
      const id = requireArg(ctx, 0, "tenant id (tnt_...)");
      refuseExtraArgs(ctx, 1);
      await run(ctx, id);
    },
  };
}

const create: Command = {
  name: "tenants create",
  summary: "create a tenant; prints it with its api_id and api_secret (shown only now)",
  usage: ["tenants create --name NAME [--email E] [--allowance N] [--period P] [--tier T]"],
  options: { ...FIELDS, ...ADMIN_TOKEN },
  async run(ctx) {
    refuseExtraArgs(ctx, 0);
    const fields = tenantFields(ctx);
    if (fields.name === undefined) throw new UsageError("--name is required", "tenants create");
    await ctx.output.json(await ctx.admin().tenants.create(fields as TenantCreateBody, signal(ctx.signal)));
  },
};

const list: Command = {
  name: "tenants list",
  summary: "every tenant with its quota use",
  usage: ["tenants list [--csv]"],
  options: { ...CSV_OPTION, ...ADMIN_TOKEN },
  async run(ctx) {
    refuseExtraArgs(ctx, 0);
    const { tenants } = await ctx.admin().tenants.list(signal(ctx.signal));
    await ctx.output.list(tenants);
  },
};

const show = idCommand("show", "one tenant", async (ctx, id) => {
  await ctx.output.json(await ctx.admin().tenants.get(id, signal(ctx.signal)));
});

const update = idCommand(
  "update",
  "change a tenant's name, email, allowance, period, tier, spent quota or state",
  async (ctx, id) => {
    const used = ctx.flags.int("used", 0);
    if (ctx.flags.bool("enable") && ctx.flags.bool("disable"))
      throw new UsageError("--enable and --disable contradict", "tenants update");
    const body: TenantPatchBody = {
      ...tenantFields(ctx),
      ...(used === undefined ? {} : { used }),
      ...(ctx.flags.bool("enable") ? { disabled: false } : {}),
      ...(ctx.flags.bool("disable") ? { disabled: true } : {}),
    };
    if (Object.keys(body).length === 0)
      throw new UsageError("nothing to change: give at least one field flag", "tenants update");
    await ctx.output.json(await ctx.admin().tenants.update(id, body, signal(ctx.signal)));
  },
  {
    ...FIELDS,
    used: {
      type: "string",
      valueName: "N",
      description: "quota spent this period (0 grants a fresh allowance)",
    },
    enable: { type: "boolean", description: "let the tenant in again" },
    disable: { type: "boolean", description: "refuse the tenant's requests" },
  },
);

const rotate = idCommand(
  "rotate",
  "issue a new secret (printed once); the old one stops at once or after --grace-seconds",
  async (ctx, id) => {
    const grace = ctx.flags.int("grace-seconds", 0);
    await ctx.output.json(
      await ctx.admin().tenants.rotate(id, {
        ...(grace === undefined ? {} : { graceSeconds: grace }),
        ...signal(ctx.signal),
      }),
    );
  },
  {
    "grace-seconds": { type: "string", valueName: "N", description: "keep the old secret working this long" },
  },
);

const token = idCommand(
  "token",
  "issue the tenant's Platform (/v3) bearer token, or rotate it (printed once); a replaced token works --grace-seconds more (default 3600)",
  async (ctx, id) => {
    const grace = ctx.flags.int("grace-seconds", 0);
    await ctx.output.json(
      await ctx.admin().tenants.issuePlatformToken(id, {
        ...(grace === undefined ? {} : { graceSeconds: grace }),
        ...signal(ctx.signal),
      }),
    );
  },
  {
    "grace-seconds": {
      type: "string",
      valueName: "N",
      description: "keep a replaced token working this long (0 stops it at once)",
    },
  },
);

const tokenStatus = idCommand(
  "token-status",
  "whether the tenant holds a Platform token, and since when (never the token)",
  async (ctx, id) => {
    await ctx.output.json(await ctx.admin().tenants.platformToken(id, signal(ctx.signal)));
  },
);

const revokeToken = idCommand(
  "revoke-token",
  "revoke the tenant's Platform tokens (stops everywhere within 5 s)",
  async (ctx, id) => {
    await ctx.output.json(await ctx.admin().tenants.revokePlatformToken(id, signal(ctx.signal)));
  },
);

const disable = idCommand(
  "disable",
  "refuse a tenant's requests (reversible with update --enable)",
  async (ctx, id) => {
    await ctx.output.json(await ctx.admin().tenants.disable(id, signal(ctx.signal)));
  },
);

const remove = idCommand("delete", "delete a tenant for good", async (ctx, id) => {
  await ctx.admin().tenants.delete(id, signal(ctx.signal));
  await ctx.output.json({ id, deleted: true });
});

export const tenantCommands: readonly Command[] = [
  create,
  list,
  show,
  update,
  rotate,
  token,
  tokenStatus,
  revokeToken,
  disable,
  remove,
];
