import { AsyncLocalStorage } from "node:async_hooks";

// Counts the D1 statements each request runs on its own path: the bench reads the count of a
// cache hit, a miss and a request that joined another's upstream call from one response header
// (enabled by D1_STATEMENTS_HEADER), instead of anyone counting statements by hand.

/** The statements one request has prepared so far. */
export class StatementMeter {
  statements = 0;
}

const current = new AsyncLocalStorage<StatementMeter>();

/** Runs `work` with `meter` counting every D1 statement prepared within it. */
export function runMetered<T>(meter: StatementMeter, work: () => T): T {
  return current.run(meter, work);
}

/**
 * `d1` with every statement it prepares counted into the meter of the request preparing it
 * (a batch of n statements prepares n). Statements outside any metered request (scheduled work)
 * are not counted.
 */
export function meteredD1(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          const meter = current.getStore();
          if (meter) meter.statements += 1;
          return target.prepare(query);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
