/**
 * The part of a D1 binding that field breakdowns and the field catalogue read through, so the
 * seed script can run them on Miniflare's D1 in Node (it counts every breakdown once, after the
 * load) and the worker on its binding; snapshots/publish.ts does the same for the snapshot tables.
 */
export interface SqlStatement {
  bind(...values: unknown[]): SqlStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
  run(): Promise<unknown>;
}

export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  batch(statements: SqlStatement[]): Promise<Array<{ results: unknown[] }>>;
}
