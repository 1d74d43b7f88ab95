import { createAdminClient } from "../admin";
import { createClient, createPlatformClient } from "../client";
import { AuthenticationError, ScangateError } from "../errors";
import { parseFlags } from "./argv";
import type { CliIO } from "./cli-io";
import {
  commandHelp,
  Flags,
  GLOBAL_OPTIONS,
  overallHelp,
  type Command,
  type CommandContext,
} from "./command";
import { documentCommands } from "./commands/documents";
import { jobCommands } from "./commands/jobs";
import { searchCommands } from "./commands/search";
import { creditCommands } from "./commands/credits";
import { tenantCommands } from "./commands/tenants";
import { EXIT, exitCodeFor, UsageError } from "./exit-codes";
import { Output } from "./output";
import { resolveSettings, type Settings } from "./settings";

export const COMMANDS: readonly Command[] = [
  ...documentCommands,
  ...searchCommands,
  ...creditCommands,
  ...jobCommands,
  ...tenantCommands,
];

/** Runs one `scangate` command line and returns its exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [first] = argv;
  if (first === undefined) {
    await io.stderr.write(overallHelp(COMMANDS));
    return EXIT.usage;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const topic = argv[1] === undefined ? undefined : findCommand(argv.slice(1));
    await io.stdout.write(topic ? commandHelp(topic.command) : overallHelp(COMMANDS));
    return EXIT.ok;
  }
  let command: Command | undefined;
  let settings: Settings | undefined;
  try {
    const found = findCommand(argv);
    if (!found) throw new UsageError(`unknown command ${JSON.stringify(argv.slice(0, 2).join(" "))}`);
    command = found.command;
    const { values, positionals } = parseCommandLine(command, argv.slice(found.words));
    if (values.help === true) {
      await io.stdout.write(commandHelp(command));
      return EXIT.ok;
    }
    const flags = new Flags(values, command.name);
    settings = resolveSettings(values, io.env, await io.readLocalEnv());
    await command.run(buildContext(command, positionals, flags, settings, io));
    return EXIT.ok;
  } catch (error) {
    if (io.signal?.aborted) {
      await io.stderr.write("scangate: interrupted\n").catch(() => undefined);
      return EXIT.interrupted;
    }
    await io.stderr.write(describeFailure(error, command, settings)).catch(() => undefined);
    return exitCodeFor(error);
  }
}

/** The longest command name that `argv` starts with (`tenants create` before `tenants`). */
function findCommand(argv: readonly string[]): { command: Command; words: number } | undefined {
  const two = `${argv[0]} ${argv[1] ?? ""}`;
  const command = COMMANDS.find((c) => c.name === two) ?? COMMANDS.find((c) => c.name === argv[0]);
  if (!command) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `));
    if (group.length > 0) {
      const names = group.map((c) => c.name.split(" ")[1]).join(", ");
      throw new UsageError(`${argv[0]} needs a subcommand: ${names}`);
    }
    return undefined;
  }
  return { command, words: command.name.split(" ").length };
}

function parseCommandLine(command: Command, args: string[]) {
  return parseFlags(args, { ...GLOBAL_OPTIONS, ...command.options }, command.name);
}

function buildContext(
  command: Command,
  args: string[],
  flags: Flags,
  settings: Settings,
  io: CliIO,
): CommandContext {
  const quiet = flags.bool("quiet");
  const timeoutSeconds = flags.int("timeout", 1, 86_400);
  const common = {
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.sleep ? { sleep: io.sleep } : {}),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(flags.bool("no-retry") ? { retry: false as const } : {}),
    onRetry: quiet
      ? undefined
      : (event: { delayMs: number; error: Error }) => {
          void io.stderr.write(
            `scangate: ${event.error.message}; retrying in ${(event.delayMs / 1000).toFixed(1)} s\n`,
          );
        },
  };
  const baseUrl = (): string => {
    if (settings.url) return settings.url;
    throw new UsageError(
      "no service URL: pass --url URL, set SCANGATE_URL, or start the local stack with `pnpm start` (it writes .scangate/local.env)",
      command.name,
    );
  };
  return {
    command,
    io,
    args,
    flags,
    quiet,
    output: new Output(io.stdout, flags.bool("csv")),
    signal: io.signal,
    api: settings.api,
    organizationId: settings.organizationId,
    platform: () =>
      createPlatformClient({
        baseUrl: baseUrl(),
        token: settings.platformToken ?? "",
        ...(settings.organizationId === undefined ? {} : { organizationId: settings.organizationId }),
        ...common,
      }),
    client: () => {
      if ((settings.apiId === undefined) !== (settings.apiSecret === undefined)) {
        throw new UsageError(
          "give both an API ID and a secret (--api-id and --secret), or neither",
          command.name,
        );
      }
      return createClient({
        baseUrl: baseUrl(),
        ...(settings.apiId !== undefined && settings.apiSecret !== undefined
          ? { apiId: settings.apiId, apiSecret: settings.apiSecret }
          : {}),
        ...common,
      });
    },
    admin: () => {
      if (!settings.adminToken) {
        throw new UsageError(
          "no admin token: pass --admin-token, set SCANGATE_ADMIN_TOKEN, or use the ADMIN_TOKEN of .scangate/local.env",
          command.name,
        );
      }
      return createAdminClient({ baseUrl: baseUrl(), adminToken: settings.adminToken, ...common });
    },
  };
}

function describeFailure(
  error: unknown,
  command: Command | undefined,
  settings: Settings | undefined,
): string {
  if (error instanceof UsageError) {
    const help = error.command ?? command?.name;
    return `scangate: ${error.message}\nRun \`scangate ${help ? `${help} ` : ""}--help\` for usage.\n`;
  }
  const platformCall = error instanceof ScangateError && error.request?.path.startsWith("/v3/") === true;
  if (error instanceof AuthenticationError && settings && platformCall && !settings.platformToken) {
    return `scangate: ${error.message}\n(no Platform token was given: pass --token, or set SCANGATE_PLATFORM_TOKEN; an admin issues one with \`scangate tenants token <tenant_id>\`)\n`;
  }
  if (
    error instanceof AuthenticationError &&
    settings &&
    !platformCall &&
    settings.apiId === undefined &&
    !command?.name.startsWith("tenants")
  ) {
    return `scangate: ${error.message}\n(no credentials were given: pass --api-id and --secret, or set SCANGATE_API_ID and SCANGATE_API_SECRET)\n`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `scangate: ${message}\n`;
}
