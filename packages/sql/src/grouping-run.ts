/**
 * Running GROUP BY: one accumulator per aggregate per group, groups kept in first-seen order,
 * DISTINCT applied in front of the accumulator. Without GROUP BY there is exactly one group,
 * even over no rows (COUNT(*) is then 0). The groups' bytes (keys, DISTINCT sets, what the
 * accumulators keep) are held on the run's budget until the records are handed on.
 */
import type { Accumulator } from "./aggregates";
import { SQL_LIMITS } from "./limits";
import type { AggregateCall, Env, GroupingNode, Row } from "./plan-nodes";
import { heldBytes, ROW_STEPS, textSteps, type RunBudget } from "./run-budget";
import { limitExceeded } from "./run-error";
import { rowKey, valueKey } from "./values";

interface Group {
  keys: unknown[];
  accumulators: Accumulator[];
  seen: (Set<string> | null)[];
}

/** Bytes of a group besides its keys: the map entry and each accumulator. */
const GROUP_BYTES = 64;
const ACCUMULATOR_BYTES = 32;

export interface GroupedRecords {
  /** The group records (grouping values, then aggregate results) that pass HAVING. */
  records: Row[];
  /** Bytes the grouping held; the caller releases them once done with the records. */
  bytes: number;
}

export async function groupRows(
  node: GroupingNode,
  frames: AsyncIterable<Row[]>,
  env: Env,
  budget: RunBudget,
  onGroups: (groups: number) => void,
): Promise<GroupedRecords> {
  const groups = new Map<string, Group>();
  const distinctHeld = node.aggregates.map(() => 0);
  let bytes = 0;
  const hold = (n: number) => {
    budget.hold(n);
    bytes += n;
  };
  const create = (keys: unknown[], id: string): Group => {
    hold(GROUP_BYTES + id.length + heldBytes(keys) + ACCUMULATOR_BYTES * node.aggregates.length);
    return {
      keys,
      accumulators: node.aggregates.map((a) => a.fn.create()),
      seen: node.aggregates.map((a) => (a.distinct ? new Set<string>() : null)),
    };
  };
  if (node.keys.length === 0) groups.set("", create([], ""));

  try {
    for await (const batch of frames) {
      for (const frame of batch) {
        const keys = node.keys.map((key) => key(frame, env));
        const id = node.keys.length === 0 ? "" : rowKey(keys);
        let steps = ROW_STEPS + id.length;
        let group = groups.get(id);
        if (!group) {
          if (groups.size >= SQL_LIMITS.maxGroups)
            throw limitExceeded("groups", SQL_LIMITS.maxGroups, "maxGroups");
          group = create(keys, id);
          groups.set(id, group);
          onGroups(groups.size);
        }
        for (let i = 0; i < node.aggregates.length; i++) {
          const aggregate = node.aggregates[i] as AggregateCall;
          const values = aggregate.args.map((arg) => arg(frame, env));
          for (const value of values) steps += textSteps(value);
          const seen = group.seen[i];
          if (seen) {
            const first = values[0];
            if (first === null || first === undefined) continue;
            const key = valueKey(first);
            if (seen.has(key)) continue;
            seen.add(key);
            hold(16 + key.length);
            if (++(distinctHeld[i] as number) > SQL_LIMITS.maxDistinct) {
              throw limitExceeded("distinct values in one aggregate", SQL_LIMITS.maxDistinct, "maxDistinct");
            }
          }
          const grown = (group.accumulators[i] as Accumulator).add(values);
          if (grown !== 0) hold(grown);
        }
        budget.charge(steps);
        if (budget.due()) await budget.pause();
      }
    }

    const records: Row[] = [];
    for (const group of groups.values()) {
      const record = [...group.keys, ...group.accumulators.map((a) => a.result())];
      budget.charge(ROW_STEPS);
      if (!node.having || node.having(record, env) === true) records.push(record);
      if (budget.due()) await budget.pause();
    }
    return { records, bytes };
  } catch (error) {
    budget.release(bytes);
    throw error;
  }
}
