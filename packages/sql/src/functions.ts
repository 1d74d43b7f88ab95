/**
 * The scalar functions a query may call: one closed table, looked up by own key (a Map), so
 * `constructor` or `__proto__` is "Function not found" like any other unknown name. Each entry
 * checks its argument types (BigQuery's "No matching signature" otherwise) and builds an
 * evaluator; regular expressions are compiled here, at plan time, and must be literals.
 */
import type { Expr } from "./ast";
import { SqlFailure } from "./errors";
import { compileRegex, parseReplacement, type Pattern } from "./patterns";
import type { Compiled, Evaluate } from "./plan-nodes";
import { textSteps } from "./run-budget";
import { checkStringLength, SqlRunError } from "./run-error";
import {
  castValue,
  commonType,
  formatDate,
  isNumeric,
  parseTimestamp,
  roundHalfAway,
  type TypeInfo,
  type ValueType,
} from "./values";

export interface ScalarFunction {
  minArgs: number;
  maxArgs: number;
  /** The result type, or null when the argument types fit no signature. */
  signature(args: readonly TypeInfo[]): TypeInfo | null;
  build(args: readonly Compiled[], nodes: readonly Expr[], name: string): Evaluate;
}

type Param =
  | "STRING"
  | "NUMBER"
  | "INTEGER"
  | "BOOLEAN"
  | "TIMESTAMP"
  | "SCALAR"
  | "ARRAY"
  | "STRING_OR_TIMESTAMP";

function accepts(param: Param, arg: TypeInfo): boolean {
  if (param === "ARRAY") return arg.array || arg.type === "NULL";
  if (arg.array) return false;
  if (arg.type === "NULL" || arg.type === "ANY" || param === "SCALAR") return true;
  switch (param) {
    case "NUMBER":
      return isNumeric(arg.type);
    case "STRING_OR_TIMESTAMP":
      return arg.type === "STRING" || arg.type === "TIMESTAMP";
    default:
      return arg.type === param;
  }
}

const scalar = (type: ValueType): TypeInfo => ({ type, array: false });

/** A signature with fixed parameters (the last one repeating when `rest`). */
function signature(
  params: Param[],
  result: TypeInfo | ((args: readonly TypeInfo[]) => TypeInfo | null),
  rest = false,
) {
  return (args: readonly TypeInfo[]): TypeInfo | null => {
    for (let i = 0; i < args.length; i++) {
      const param = params[Math.min(i, params.length - 1)];
      if (!param || (!rest && i >= params.length) || !accepts(param, args[i] as TypeInfo)) return null;
    }
    return typeof result === "function" ? result(args) : result;
  };
}

/** The first argument's numeric type, FLOAT if any argument is FLOAT. */
function numericResult(args: readonly TypeInfo[]): TypeInfo {
  return scalar(
    args.some((a) => a.type === "FLOAT")
      ? "FLOAT"
      : args[0]?.type === "NULL"
        ? "INTEGER"
        : (args[0]?.type ?? "INTEGER"),
  );
}

/** The common type of the given arguments (IF's branches, COALESCE), or null when they have none. */
function unified(indexes: (args: readonly TypeInfo[]) => readonly TypeInfo[]) {
  return (args: readonly TypeInfo[]): TypeInfo | null => {
    const chosen = indexes(args);
    let type: ValueType = "NULL";
    for (const arg of chosen) {
      if (arg.array) return chosen.length === 1 ? arg : null;
      const next = commonType(type, arg.type);
      if (next === null) return null;
      type = next;
    }
    return scalar(type);
  };
}

/**
 * Evaluates every argument; NULL if any is NULL, else `fn` of the values. The characters of
 * the arguments are charged before `fn` runs, those of its result after.
 */
function strict(fn: (values: unknown[]) => unknown) {
  return (args: readonly Compiled[]): Evaluate => {
    const evaluators = args.map((a) => a.evaluate);
    return (row, env) => {
      const values: unknown[] = [];
      let steps = 0;
      for (const evaluate of evaluators) {
        const value = evaluate(row, env);
        if (value === null || value === undefined) return null;
        values.push(value);
        steps += textSteps(value);
      }
      env.meter.charge(steps);
      const result = fn(values);
      env.meter.charge(textSteps(result));
      return result;
    };
  };
}

function concatenate(values: readonly unknown[]): string {
  let length = 0;
  for (const value of values) length += (value as string).length;
  checkStringLength(length);
  return values.join("");
}

/** REPLACE: every occurrence of `from` by `to`, the result's length checked before it is built. */
function replaceText(text: string, from: string, to: string): string {
  if (from === "") return text;
  let count = 0;
  for (let at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + from.length)) count += 1;
  checkStringLength(text.length + count * (to.length - from.length));
  return text.split(from).join(to);
}

function characters(text: string): string[] {
  return Array.from(text);
}

/** The regular expression of argument `index`, which must be a string literal. */
function literalPattern(nodes: readonly Expr[], index: number, name: string): Pattern {
  const node = nodes[index];
  if (!node || node.kind !== "literal" || typeof node.value !== "string") {
    throw new SqlFailure(
      `${name} needs its regular expression as a string literal`,
      node?.span.start ?? null,
    );
  }
  return compileRegex(node.value, node.span.start, name);
}

function substr(text: string, position: number, length: number | null): string {
  const chars = characters(text);
  let start = position > 0 ? position - 1 : position < 0 ? Math.max(0, chars.length + position) : 0;
  start = Math.min(start, chars.length);
  if (length !== null && length < 0) throw new SqlRunError(`SUBSTR length cannot be negative: ${length}`);
  const end = length === null ? chars.length : Math.min(chars.length, start + length);
  return chars.slice(start, end).join("");
}

function trimmer(mode: "both" | "left" | "right") {
  return strict((values) => {
    const text = values[0] as string;
    const set = new Set(characters(values.length > 1 ? (values[1] as string) : " "));
    const chars = characters(text);
    let start = 0;
    let end = chars.length;
    if (mode !== "right") while (start < end && set.has(chars[start] as string)) start++;
    if (mode !== "left") while (end > start && set.has(chars[end - 1] as string)) end--;
    return chars.slice(start, end).join("");
  });
}

function fixed(
  min: number,
  max: number,
  sig: (args: readonly TypeInfo[]) => TypeInfo | null,
  build: (args: readonly Compiled[], nodes: readonly Expr[], name: string) => Evaluate,
): ScalarFunction {
  return { minArgs: min, maxArgs: max, signature: sig, build };
}

const STRING = scalar("STRING");
const INTEGER = scalar("INTEGER");
const FLOAT = scalar("FLOAT");
const BOOLEAN = scalar("BOOLEAN");
const TIMESTAMP = scalar("TIMESTAMP");

const regexMatch = fixed(2, 2, signature(["STRING", "STRING"], BOOLEAN), (args, nodes, name) => {
  const pattern = literalPattern(nodes, 1, name);
  const text = args[0]?.evaluate as Evaluate;
  return (row, env) => {
    const value = text(row, env);
    return typeof value === "string" ? pattern.test(value, env.meter) : null;
  };
});

const castFunction = (to: "STRING" | "INTEGER" | "FLOAT" | "BOOLEAN", result: TypeInfo) =>
  fixed(1, 1, signature(["SCALAR"], result), (args) => {
    const arg = args[0] as Compiled;
    return (row, env) => {
      const value = arg.evaluate(row, env);
      env.meter.charge(textSteps(value));
      return castValue(value, arg.type, to, " UTC") ?? null;
    };
  });

const currentTimestamp = fixed(0, 0, signature([], TIMESTAMP), () => (_row, env) => env.now);

const coalesce = fixed(
  1,
  Number.POSITIVE_INFINITY,
  unified((args) => args),
  (args) => {
    const evaluators = args.map((a) => a.evaluate);
    return (row, env) => {
      for (const evaluate of evaluators) {
        const value = evaluate(row, env);
        if (value !== null && value !== undefined) return value;
      }
      return null;
    };
  },
);

const ENTRIES: [string, ScalarFunction][] = [
  [
    "LOWER",
    fixed(
      1,
      1,
      signature(["STRING"], STRING),
      strict(([s]) => (s as string).toLowerCase()),
    ),
  ],
  [
    "UPPER",
    fixed(
      1,
      1,
      signature(["STRING"], STRING),
      strict(([s]) => (s as string).toUpperCase()),
    ),
  ],
  [
    "LENGTH",
    fixed(
      1,
      1,
      signature(["STRING"], INTEGER),
      strict(([s]) => characters(s as string).length),
    ),
  ],
  ["CONCAT", fixed(1, Number.POSITIVE_INFINITY, signature(["STRING"], STRING, true), strict(concatenate))],
  [
    "SUBSTR",
    fixed(
      2,
      3,
      signature(["STRING", "INTEGER", "INTEGER"], STRING),
      strict(([s, p, l]) => substr(s as string, p as number, l === undefined ? null : (l as number))),
    ),
  ],
  ["TRIM", fixed(1, 2, signature(["STRING", "STRING"], STRING), trimmer("both"))],
  ["LTRIM", fixed(1, 2, signature(["STRING", "STRING"], STRING), trimmer("left"))],
  ["RTRIM", fixed(1, 2, signature(["STRING", "STRING"], STRING), trimmer("right"))],
  [
    "REPLACE",
    fixed(
      3,
      3,
      signature(["STRING", "STRING", "STRING"], STRING),
      strict(([s, from, to]) => replaceText(s as string, from as string, to as string)),
    ),
  ],
  [
    "STARTS_WITH",
    fixed(
      2,
      2,
      signature(["STRING", "STRING"], BOOLEAN),
      strict(([s, p]) => (s as string).startsWith(p as string)),
    ),
  ],
  [
    "ENDS_WITH",
    fixed(
      2,
      2,
      signature(["STRING", "STRING"], BOOLEAN),
      strict(([s, p]) => (s as string).endsWith(p as string)),
    ),
  ],
  [
    "STRPOS",
    fixed(
      2,
      2,
      signature(["STRING", "STRING"], INTEGER),
      strict(([s, sub]) => {
        const at = (s as string).indexOf(sub as string);
        return at < 0 ? 0 : characters((s as string).slice(0, at)).length + 1;
      }),
    ),
  ],
  [
    "LEFT",
    fixed(
      2,
      2,
      signature(["STRING", "INTEGER"], STRING),
      strict(([s, n]) =>
        characters(s as string)
          .slice(0, Math.max(0, n as number))
          .join(""),
      ),
    ),
  ],
  [
    "RIGHT",
    fixed(
      2,
      2,
      signature(["STRING", "INTEGER"], STRING),
      strict(([s, n]) => {
        const chars = characters(s as string);
        return chars.slice(Math.max(0, chars.length - Math.max(0, n as number))).join("");
      }),
    ),
  ],
  [
    "SPLIT",
    fixed(
      1,
      2,
      signature(["STRING", "STRING"], { type: "STRING", array: true }),
      strict(([s, d]) => {
        const text = s as string;
        if (d === "") return characters(text);
        return text === "" ? [] : text.split(d === undefined ? "," : (d as string));
      }),
    ),
  ],
  [
    "IFNULL",
    fixed(
      2,
      2,
      unified((args) => args),
      (args) => coalesce.build(args, [], "IFNULL"),
    ),
  ],
  ["COALESCE", coalesce],
  [
    "NULLIF",
    fixed(
      2,
      2,
      unified((args) => args.slice(0, 1)),
      (args) => {
        const [a, b] = args.map((x) => x.evaluate) as [Evaluate, Evaluate];
        return (row, env) => {
          const value = a(row, env);
          const other = b(row, env);
          // Comparing two strings reads their characters.
          env.meter.charge(textSteps(value) + textSteps(other));
          return value !== null && value === other ? null : value;
        };
      },
    ),
  ],
  [
    "IF",
    fixed(
      3,
      3,
      (args) => (args[0] && accepts("BOOLEAN", args[0]) ? unified((all) => all.slice(1))(args) : null),
      (args) => {
        const [cond, then, otherwise] = args.map((x) => x.evaluate) as [Evaluate, Evaluate, Evaluate];
        return (row, env) => (cond(row, env) === true ? then(row, env) : otherwise(row, env));
      },
    ),
  ],
  [
    "ABS",
    fixed(
      1,
      1,
      signature(["NUMBER"], numericResult),
      strict(([x]) => Math.abs(x as number)),
    ),
  ],
  [
    "ROUND",
    fixed(
      1,
      2,
      signature(["NUMBER", "INTEGER"], (args) => (args[0]?.type === "INTEGER" ? INTEGER : FLOAT)),
      strict(([x, digits]) => {
        const scale = 10 ** ((digits as number | undefined) ?? 0);
        return roundHalfAway((x as number) * scale) / scale;
      }),
    ),
  ],
  [
    "FLOOR",
    fixed(
      1,
      1,
      signature(["NUMBER"], FLOAT),
      strict(([x]) => Math.floor(x as number)),
    ),
  ],
  [
    "CEIL",
    fixed(
      1,
      1,
      signature(["NUMBER"], FLOAT),
      strict(([x]) => Math.ceil(x as number)),
    ),
  ],
  [
    "MOD",
    fixed(
      2,
      2,
      signature(["NUMBER", "NUMBER"], numericResult),
      strict(([a, b]) => {
        if (b === 0) throw new SqlRunError("division by zero");
        return (a as number) % (b as number);
      }),
    ),
  ],
  [
    "SAFE_DIVIDE",
    fixed(
      2,
      2,
      signature(["NUMBER", "NUMBER"], FLOAT),
      strict(([a, b]) => (b === 0 ? null : (a as number) / (b as number))),
    ),
  ],
  ["REGEXP_MATCH", regexMatch],
  ["REGEXP_CONTAINS", regexMatch],
  [
    "REGEXP_EXTRACT",
    fixed(2, 2, signature(["STRING", "STRING"], STRING), (args, nodes, name) => {
      const pattern = literalPattern(nodes, 1, name);
      if (pattern.groups > 1) {
        throw new SqlFailure(
          "Regular expressions passed into extraction functions must not have more than 1 capturing group",
          nodes[1]?.span.start ?? null,
        );
      }
      const text = args[0]?.evaluate as Evaluate;
      return (row, env) => {
        const value = text(row, env);
        return typeof value === "string" ? pattern.extract(value, env.meter) : null;
      };
    }),
  ],
  [
    "REGEXP_REPLACE",
    fixed(3, 3, signature(["STRING", "STRING", "STRING"], STRING), (args, nodes, name) => {
      const pattern = literalPattern(nodes, 1, name);
      const text = args[0]?.evaluate as Evaluate;
      const replacement = args[2]?.evaluate as Evaluate;
      // The replacement is nearly always a literal: parsed once, not once a row.
      let parsed: { template: string; parts: ReturnType<typeof parseReplacement> } | null = null;
      return (row, env) => {
        const value = text(row, env);
        const template = replacement(row, env);
        if (typeof value !== "string" || typeof template !== "string") return null;
        if (parsed?.template !== template) {
          env.meter.charge(template.length);
          parsed = { template, parts: parseReplacement(template) };
        }
        return pattern.replace(value, parsed.parts, env.meter);
      };
    }),
  ],
  [
    "TIMESTAMP",
    fixed(1, 1, signature(["STRING_OR_TIMESTAMP"], TIMESTAMP), (args) => {
      const arg = args[0] as Compiled;
      return (row, env) => {
        const value = arg.evaluate(row, env);
        if (typeof value !== "string") return value ?? null;
        env.meter.charge(value.length);
        const ms = parseTimestamp(value);
        if (ms === null) throw new SqlRunError(`Invalid timestamp: '${value}'`);
        return ms;
      };
    }),
  ],
  [
    "DATE",
    fixed(1, 1, signature(["STRING_OR_TIMESTAMP"], STRING), (args) => {
      const arg = args[0] as Compiled;
      return (row, env) => {
        const value = arg.evaluate(row, env);
        env.meter.charge(textSteps(value));
        const ms =
          typeof value === "number" ? value : typeof value === "string" ? parseTimestamp(value) : null;
        return ms === null ? null : formatDate(ms);
      };
    }),
  ],
  ["STRING", castFunction("STRING", STRING)],
  ["INTEGER", castFunction("INTEGER", INTEGER)],
  ["FLOAT", castFunction("FLOAT", FLOAT)],
  ["BOOLEAN", castFunction("BOOLEAN", BOOLEAN)],
  [
    "ARRAY_LENGTH",
    fixed(1, 1, signature(["ARRAY"], INTEGER), (args) => {
      const arg = args[0] as Compiled;
      return (row, env) => {
        const value = arg.evaluate(row, env);
        return Array.isArray(value) ? value.length : null;
      };
    }),
  ],
  ["CURRENT_TIMESTAMP", currentTimestamp],
  ["NOW", currentTimestamp],
];

const ALIASES: [string, string][] = [
  ["SUBSTRING", "SUBSTR"],
  ["INSTR", "STRPOS"],
  ["CEILING", "CEIL"],
];

export const SCALAR_FUNCTIONS: ReadonlyMap<string, ScalarFunction> = new Map([
  ...ENTRIES,
  ...ALIASES.map(([alias, name]): [string, ScalarFunction] => [
    alias,
    ENTRIES.find(([entry]) => entry === name)?.[1] as ScalarFunction,
  ]),
]);
