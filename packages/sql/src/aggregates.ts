/**
 * The aggregate functions: a closed table (own-key lookup, as for scalar functions) of
 * accumulators. Every aggregate skips NULL inputs; over no input COUNT and COUNTIF give 0 and
 * the others NULL, as in BigQuery. DISTINCT is applied by the executor in front of the
 * accumulator, so every aggregate accepts it.
 */
import { heldBytes } from "./run-budget";
import { checkStringLength } from "./run-error";
import { compareValues, isNumeric, type TypeInfo, type ValueType } from "./values";

export interface Accumulator {
  /**
   * The argument values of one input row (none for COUNT(*)). Returns the bytes it holds now
   * beyond what it held before (run-budget.ts `heldBytes`; negative when it let a value go).
   */
  add(values: readonly unknown[]): number;
  result(): unknown;
}

export interface AggregateFunction {
  minArgs: number;
  maxArgs: number;
  /** COUNT(*) */
  star: boolean;
  /** The result type, or null when the argument types fit no signature. */
  signature(args: readonly TypeInfo[], distinct: boolean): TypeInfo | null;
  create(): Accumulator;
}

const scalar = (type: ValueType): TypeInfo => ({ type, array: false });
const isNull = (value: unknown): boolean => value === null || value === undefined;
const fitsScalar = (arg: TypeInfo | undefined): boolean => arg !== undefined && !arg.array;
const fits = (arg: TypeInfo | undefined, wanted: ValueType): boolean =>
  fitsScalar(arg) && (arg?.type === wanted || arg?.type === "NULL" || arg?.type === "ANY");
const fitsNumber = (arg: TypeInfo | undefined): boolean =>
  fitsScalar(arg) && (isNumeric(arg?.type ?? "ANY") || arg?.type === "NULL" || arg?.type === "ANY");

function counting(predicate: (values: readonly unknown[]) => boolean): () => Accumulator {
  return () => {
    let count = 0;
    return {
      add(values) {
        if (predicate(values)) count += 1;
        return 0;
      },
      result: () => count,
    };
  };
}

function extreme(sign: 1 | -1): () => Accumulator {
  return () => {
    let best: unknown = null;
    return {
      add([value]) {
        if (isNull(value) || (best !== null && sign * compareValues(value, best) <= 0)) return 0;
        const grown = heldBytes(value) - heldBytes(best);
        best = value;
        return grown;
      },
      result: () => best,
    };
  };
}

function concatenating(): Accumulator {
  let text: string | null = null;
  let separator: string | null = null;
  return {
    add([value, sep]) {
      if (isNull(value)) return 0;
      separator ??= typeof sep === "string" ? sep : ",";
      const next = String(value);
      const before = text?.length ?? 0;
      const added = text === null ? next.length : separator.length + next.length;
      checkStringLength(before + added);
      text = text === null ? next : text + separator + next;
      return text.length - before + (before === 0 ? 16 : 0);
    },
    result: () => text,
  };
}

function logical(all: boolean): () => Accumulator {
  return () => {
    let result: boolean | null = null;
    return {
      add([value]) {
        if (typeof value === "boolean")
          result = result === null ? value : all ? result && value : result || value;
        return 0;
      },
      result: () => result,
    };
  };
}

const count: AggregateFunction = {
  minArgs: 0,
  maxArgs: 2,
  star: true,
  // Legacy COUNT(DISTINCT x, n) takes an accuracy hint; ours is exact, so n is read and ignored.
  signature: (args, distinct) =>
    args.length === 2 && !(distinct && fitsNumber(args[1]))
      ? null
      : args[0]?.array
        ? null
        : scalar("INTEGER"),
  create: counting((values) => values.length === 0 || !isNull(values[0])),
};

const ENTRIES: [string, AggregateFunction][] = [
  ["COUNT", count],
  [
    "EXACT_COUNT_DISTINCT",
    {
      ...count,
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fitsScalar(args[0]) ? scalar("INTEGER") : null),
    },
  ],
  [
    "COUNTIF",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fits(args[0], "BOOLEAN") ? scalar("INTEGER") : null),
      create: counting(([value]) => value === true),
    },
  ],
  [
    "SUM",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) =>
        fitsNumber(args[0])
          ? scalar(args[0]?.type === "FLOAT" ? "FLOAT" : args[0]?.type === "ANY" ? "ANY" : "INTEGER")
          : null,
      create: () => {
        let sum: number | null = null;
        return {
          add([value]) {
            if (typeof value === "number") sum = (sum ?? 0) + value;
            return 0;
          },
          result: () => sum,
        };
      },
    },
  ],
  [
    "AVG",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fitsNumber(args[0]) ? scalar("FLOAT") : null),
      create: () => {
        let sum = 0;
        let n = 0;
        return {
          add([value]) {
            if (typeof value !== "number") return 0;
            sum += value;
            n += 1;
            return 0;
          },
          result: () => (n === 0 ? null : sum / n),
        };
      },
    },
  ],
  [
    "MIN",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fitsScalar(args[0]) ? (args[0] as TypeInfo) : null),
      create: extreme(-1),
    },
  ],
  [
    "MAX",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fitsScalar(args[0]) ? (args[0] as TypeInfo) : null),
      create: extreme(1),
    },
  ],
  [
    "ANY_VALUE",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => args[0] ?? null,
      create: () => {
        let found: unknown = null;
        return {
          add([value]) {
            if (found !== null || isNull(value)) return 0;
            found = value;
            return heldBytes(value);
          },
          result: () => found,
        };
      },
    },
  ],
  [
    "STRING_AGG",
    {
      minArgs: 1,
      maxArgs: 2,
      star: false,
      signature: (args) =>
        fits(args[0], "STRING") && (args.length < 2 || fits(args[1], "STRING")) ? scalar("STRING") : null,
      create: concatenating,
    },
  ],
  [
    "LOGICAL_AND",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fits(args[0], "BOOLEAN") ? scalar("BOOLEAN") : null),
      create: logical(true),
    },
  ],
  [
    "LOGICAL_OR",
    {
      minArgs: 1,
      maxArgs: 1,
      star: false,
      signature: (args) => (fits(args[0], "BOOLEAN") ? scalar("BOOLEAN") : null),
      create: logical(false),
    },
  ],
];

const ALIASES: [string, string][] = [
  // Legacy GROUP_CONCAT; we never quote the values, so GROUP_CONCAT_UNQUOTED is the same function.
  ["GROUP_CONCAT", "STRING_AGG"],
  ["GROUP_CONCAT_UNQUOTED", "STRING_AGG"],
];

export const AGGREGATE_FUNCTIONS: ReadonlyMap<string, AggregateFunction> = new Map([
  ...ENTRIES,
  ...ALIASES.map(([alias, name]): [string, AggregateFunction] => [
    alias,
    ENTRIES.find(([entry]) => entry === name)?.[1] as AggregateFunction,
  ]),
]);

/** Names whose DISTINCT is implied (EXACT_COUNT_DISTINCT(x) is COUNT(DISTINCT x)). */
export const ALWAYS_DISTINCT: ReadonlySet<string> = new Set(["EXACT_COUNT_DISTINCT"]);
