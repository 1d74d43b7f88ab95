/**
 * What the planner hands the executor: a tree of nodes whose expressions are already compiled
 * to closures over a row. The executor only walks it; every name, type and bound was settled
 * while planning.
 *
 * A `Row` is an array of slots. While rows come out of FROM it is a frame: one slot per table
 * (its source row), per derived table (its result row), per repeated group being iterated (the
 * current element) and per `WITH OFFSET`. After GROUP BY it is a group record: the grouping
 * values, then the aggregate results.
 */
import type { ResolvedTable, ScanHint } from "./source";
import type { AggregateFunction } from "./aggregates";
import type { TypeInfo } from "./values";
import type { ResultColumn } from "./plan";

export type Row = unknown[];

/** Where an evaluation counts the work it does (run-budget.ts). */
export interface WorkMeter {
  /** Counts `steps` of work; throws when one row's work is past its bound. */
  charge(steps: number): void;
}

/** What every evaluation of one run shares: the uncorrelated subqueries' answers, the query's clock, its work. */
export interface Env {
  readonly subqueries: unknown[];
  /** CURRENT_TIMESTAMP(): fixed for the whole query, as in BigQuery. */
  readonly now: number;
  readonly meter: WorkMeter;
}

export type Evaluate = (row: Row, env: Env) => unknown;

export interface Compiled extends TypeInfo {
  evaluate: Evaluate;
}

export interface ScanNode {
  kind: "scan";
  table: ResolvedTable;
  slot: number;
  columns: string[];
  hints: ScanHint[];
}

export interface DerivedNode {
  kind: "derived";
  query: QueryNode;
  slot: number;
}

export type RelationNode = ScanNode | DerivedNode;

/** One row per element of an array (implicit flattening, FLATTEN, UNNEST). */
export interface ExpandNode {
  slot: number;
  offsetSlot: number | null;
  array: Evaluate;
  /** Keep a row whose array is empty (its element NULL): FLATTEN, implicit flattening, LEFT JOIN UNNEST. */
  keepEmpty: boolean;
  /** `JOIN UNNEST(...) ON cond`: which elements join. */
  filter: Evaluate | null;
}

export interface JoinNode {
  relation: RelationNode;
  /** Flattening of the right relation, applied to the build rows. */
  expand: ExpandNode[];
  /** The slots the right side fills (NULL for an unmatched LEFT JOIN row). */
  rightSlots: number[];
  leftKeys: Evaluate[];
  rightKeys: Evaluate[];
  residual: Evaluate | null;
  left: boolean;
}

export type FromStep = { kind: "expand"; expand: ExpandNode } | { kind: "join"; join: JoinNode };

export interface FromNode {
  first: RelationNode;
  firstExpand: ExpandNode[];
  steps: FromStep[];
}

export interface AggregateCall {
  fn: AggregateFunction;
  /** Row-mode arguments; empty for COUNT(*). */
  args: Evaluate[];
  argTypes: TypeInfo[];
  distinct: boolean;
}

export interface GroupingNode {
  keys: Evaluate[];
  aggregates: AggregateCall[];
  having: Evaluate | null;
}

export interface OrderKey {
  evaluate: Evaluate;
  descending: boolean;
  nullsFirst: boolean;
}

export interface SelectNode {
  kind: "select";
  /** Slots of a frame. */
  slots: number;
  from: FromNode | null;
  where: Evaluate | null;
  grouping: GroupingNode | null;
  /** Over a frame, or over a group record when grouping. */
  outputs: Evaluate[];
  distinct: boolean;
  order: OrderKey[];
  limit: number | null;
  offset: number;
  columns: ResultColumn[];
}

export interface UnionNode {
  kind: "union";
  distinct: boolean;
  queries: QueryNode[];
  /** Over the union's result rows. */
  order: OrderKey[];
  limit: number | null;
  offset: number;
  columns: ResultColumn[];
}

export type QueryNode = SelectNode | UnionNode;

/** An uncorrelated subquery, run once before the query; its answer is `env.subqueries[index]`. */
export interface SubqueryNode {
  query: QueryNode;
  use: "in" | "scalar" | "exists";
}
