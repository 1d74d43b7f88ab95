import { UsageError } from "./exit-codes";

/** One flag a command accepts, as parsing and help read it. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Shown in help, e.g. `N` for `--limit N`. */
  valueName?: string;
  description: string;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Strict command-line parsing with node:util parseArgs' rules (`--name value`, `--name=value`,
 * `-h`, repeatable flags, `--` ending the flags; unknown flags and missing values are errors).
 * Written here because workerd, where the CLI's tests run it against the real workers, does
 * not implement parseArgs.
 */
export function parseFlags(
  args: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
  command: string,
): { values: FlagValues; positionals: string[] } {
  const values: FlagValues = {};
  const positionals: string[] = [];
  const shorts = new Map(
    Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])),
  );
  const set = (name: string, spec: OptionSpec, value: string | boolean) => {
    if (spec.multiple && typeof value === "string")
      values[name] = [...((values[name] as string[] | undefined) ?? []), value];
    else values[name] = value;
  };

  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const eq = long ? arg.indexOf("=") : -1;
    const name = long ? arg.slice(2, eq === -1 ? undefined : eq) : shorts.get(arg.slice(1));
    // Own keys only: `--constructor` is an unknown option, not Object.prototype's.
    const spec = name !== undefined && Object.hasOwn(options, name) ? options[name] : undefined;
    if (name === undefined || spec === undefined) {
      throw new UsageError(
        `unknown option ${long ? arg.slice(0, eq === -1 ? undefined : eq) : arg} (an argument that starts with - goes after --)`,
        command,
      );
    }
    if (spec.type === "boolean") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`, command);
      set(name, spec, true);
      continue;
    }
    if (eq !== -1) {
      set(name, spec, arg.slice(eq + 1));
      continue;
    }
    const value = args[i + 1];
    if (value === undefined) throw new UsageError(`--${name} needs a value`, command);
    set(name, spec, value);
    i += 1;
  }
  return { values, positionals };
}
