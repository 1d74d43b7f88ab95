import { V3_CREDIT_USAGE_EARLIEST_DATE, v3DateSchema } from "@scangate/core";
import { CSV_OPTION, refuseExtraArgs, type Command, type CommandContext } from "../command";
import { UsageError } from "../exit-codes";
import { requireOrganization, signal } from "./documents";

function date(ctx: CommandContext, name: string): string | undefined {
  const text = ctx.flags.string(name);
  if (text === undefined) return undefined;
  if (!v3DateSchema.safeParse(text).success)
    throw new UsageError(`--${name} must be a date YYYY-MM-DD, got ${JSON.stringify(text)}`, "credits");
  return text;
}

const credits: Command = {
  name: "credits",
  summary: "the tenant's allowance left (v3: the organization's balance or usage)",
  usage: [
    "credits",
    "credits --api v3 [--org ID]",
    "credits --api v3 --usage [--granularity daily|monthly] [--start DATE] [--end DATE] [--member USER_ID] [--csv]",
  ],
  details:
    "Legacy: the calling tenant's allowance in this period, as the edge answers /api/v1/account (scangate\n" +
    "charges Platform credits and legacy queries to the same allowance): allowance, used, remaining, resets_at.\n" +
    "With --api v3: the Platform organization's credit balance and grants (GET /v3/accounts/organizations/<id>/\n" +
    "credits), or with --usage its credit usage report (--member: one member's). Account reads cost nothing.\n" +
    "The organization id comes from --org or SCANGATE_ORGANIZATION_ID; through scangate's edge it is the\n" +
    "edge's upstream organization, so the balance is the team's shared one. --csv prints the usage periods.",
  options: {
    usage: { type: "boolean", description: "v3: the credit usage report instead of the balance" },
    granularity: {
      type: "string",
      valueName: "G",
      description: "v3 --usage: daily or monthly (default monthly)",
    },
    start: {
      type: "string",
      valueName: "DATE",
      description: `v3 --usage: first day, YYYY-MM-DD, on or after ${V3_CREDIT_USAGE_EARLIEST_DATE} (default: the 1st of this month)`,
    },
    end: {
      type: "string",
      valueName: "DATE",
      description: "v3 --usage: last day, YYYY-MM-DD (default today)",
    },
    member: { type: "string", valueName: "USER_ID", description: "v3 --usage: one member's usage" },
    ...CSV_OPTION,
  },
  async run(ctx) {
    refuseExtraArgs(ctx, 0);
    const usage = ctx.flags.bool("usage");
    const granularity = ctx.flags.choice("granularity", ["daily", "monthly"] as const);
    const startDate = date(ctx, "start");
    const endDate = date(ctx, "end");
    const member = ctx.flags.string("member");
    const reportFlags = granularity ?? startDate ?? endDate ?? member;
    if (!usage && reportFlags !== undefined)
      throw new UsageError("--granularity, --start, --end and --member go with --usage", "credits");
    if (ctx.api !== "v3") {
      if (usage)
        throw new UsageError("--usage needs --api v3 (the Platform's credit usage report)", "credits");
      const { quota } = await ctx.client().account(signal(ctx.signal));
      const remaining = Math.max(0, quota.allowance - quota.used);
      const summary = { allowance: quota.allowance, used: quota.used, remaining, resets_at: quota.resets_at };
      if (ctx.output.csv) await ctx.output.list([summary]);
      else await ctx.output.json(summary);
      return;
    }
    requireOrganization(ctx);
    const accounts = ctx.platform().accounts;
    if (!usage) {
      const balance = await accounts.credits(signal(ctx.signal));
      if (ctx.output.csv)
        await ctx.output.list(balance.credit_expirations, [
          "balance",
          "initial_balance",
          "created_at",
          "expires_at",
        ]);
      else await ctx.output.json(balance);
      return;
    }
    const options = {
      ...(granularity === undefined ? {} : { granularity }),
      ...(startDate === undefined ? {} : { startDate }),
      ...(endDate === undefined ? {} : { endDate }),
      ...signal(ctx.signal),
    };
    const report =
      member === undefined
        ? await accounts.creditUsage(options)
        : await accounts.memberCreditUsage(member, options);
    if (ctx.output.csv) await ctx.output.list(report.periods);
    else await ctx.output.json(report);
  },
};

export const creditCommands: readonly Command[] = [credits];
