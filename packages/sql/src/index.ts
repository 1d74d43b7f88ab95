export type * from "./ast";
export { describeSqlError, positionOf, type SqlError, type SqlPosition, type SqlResult } from "./errors";
export { SQL_LIMITS } from "./limits";
export type * from "./source";
export { parseQuery } from "./parser";
export { planQuery, prepareQuery, type Plan, type ResultColumn } from "./plan";
export { runPlan, SqlRunError, type ResultBatch, type RunOptions } from "./execute";
