/**
 * A D1 binding whose statements fail on demand: each rule names the SQL it matches and how many
 * executions it fails. Statements are wrapped where they are prepared, so `run`, `all`, `first`,
 * `raw` and a `batch` holding a matching statement all fail as D1 itself reports an error.
 */
export class FailingD1 {
  private readonly rules: { pattern: RegExp; remaining: number }[] = [];
  /** The SQL of every execution that was made to fail. */
  readonly failed: string[] = [];

  failWhen(pattern: RegExp, times = Number.POSITIVE_INFINITY): void {
    this.rules.push({ pattern, remaining: times });
  }

  heal(): void {
    this.rules.length = 0;
  }

  /** The error D1 would report when one of `queries` is to fail now, else undefined. */
  private fault(queries: readonly string[]): Error | undefined {
    for (const query of queries) {
      const rule = this.rules.find((r) => r.remaining > 0 && r.pattern.test(query));
      if (!rule) continue;
      rule.remaining -= 1;
      this.failed.push(query);
      return new Error(`D1_ERROR: injected fault: ${query.slice(0, 60)}`);
    }
    return undefined;
  }

  readonly wrap = (d1: D1Database): D1Database => {
    const origins = new WeakMap<object, { statement: D1PreparedStatement; query: string }>();
    const wrapStatement = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
      const proxy = new Proxy(statement, {
        get: (target, property) => {
          if (property === "bind")
            return (...values: unknown[]) => wrapStatement(target.bind(...values), query);
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== "function") return value;
          const method = value as (...args: unknown[]) => unknown;
          if (property === "run" || property === "all" || property === "first" || property === "raw")
            return (...args: unknown[]) => {
              const fault = this.fault([query]);
              return fault ? Promise.reject(fault) : method.apply(target, args);
            };
          return method.bind(target);
        },
      });
      origins.set(proxy, { statement, query });
      return proxy;
    };
    return new Proxy(d1, {
      get: (target, property) => {
        if (property === "prepare") return (query: string) => wrapStatement(target.prepare(query), query);
        if (property === "batch")
          return async (statements: D1PreparedStatement[]) => {
            const unwrapped = statements.map((s) => origins.get(s) ?? { statement: s, query: "" });
            const fault = this.fault(unwrapped.map((u) => u.query));
            if (fault) throw fault;
            return target.batch(unwrapped.map((u) => u.statement));
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}
