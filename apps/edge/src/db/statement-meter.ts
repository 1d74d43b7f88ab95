import { AsyncLocalStorage } from "node:async_hooks";

// Counts the D1 statements and the ledger calls each request makes on its own path: the bench
// reads the counts of a cache hit, a miss and a charged request from response headers (enabled
// by D1_STATEMENTS_HEADER), instead of anyone counting them by hand.

/** The statements one request has run so far, and its calls to its tenant's ledger. */
export class StatementMeter {
  statements = 0;
  ledgerCalls = 0;
}

const current = new AsyncLocalStorage<StatementMeter>();

/** Runs `work` with `meter` counting every D1 statement run within it. */
export function runMetered<T>(meter: StatementMeter, work: () => T): T {
  return current.run(meter, work);
}

/**
 * Starts background work and keeps it alive past the response (the request's `waitUntil`).
 * It is given the work to start, not a promise already started: the request decides what the
 * work runs in (its statements are not the request's own: `unmetered`).
 */
export type Defer = (work: () => Promise<unknown>) => void;

/** Counts into the meter of the request running now (none outside one). */
function count(what: keyof StatementMeter, n: number): void {
  const meter = current.getStore();
  if (meter) meter[what] += n;
}

export const countLedgerCall = () => count("ledgerCalls", 1);

/**
 * Starts `work` outside any request's count: background work a request hands to `waitUntil`
 * (a tenant row read ahead of its expiry, the last-seen write) is not on its path.
 */
export function unmetered<T>(work: () => T): T {
  return current.exit(work);
}

/** The statement a metered one stands for (D1's batch is given its own statements). */
const unwrapped = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

/** The methods of a prepared statement that run it (once each). */
const RUNS = new Set<PropertyKey>(["first", "all", "run", "raw"]);

/** `statement`, counting each run into the meter of the request running it; `bind` keeps counting. */
function metered(statement: D1PreparedStatement): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === "bind") return (...args: unknown[]) => metered(method(...args) as D1PreparedStatement);
      if (RUNS.has(property))
        return (...args: unknown[]) => {
          count("statements", 1);
          return method(...args);
        };
      return method;
    },
  });
  unwrapped.set(proxy, statement);
  return proxy;
}

/**
 * `d1` with every statement it runs counted into the meter of the request running it (a batch
 * of n statements runs n), wherever the statement was prepared: a statement prepared once per
 * isolate and run by many requests counts once in each. Statements run outside any metered
 * request (scheduled work) are not counted.
 */
export function meteredD1(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => metered(target.prepare(query));
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          count("statements", statements.length);
          return target.batch(statements.map((s) => unwrapped.get(s) ?? s));
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
