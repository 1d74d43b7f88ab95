/**
 * Running GROUP BY: one accumulator per aggregate per group, groups kept in first-seen order,
 * DISTINCT applied in front of the accumulator. Without GROUP BY there is exactly one group,
 * even over no rows (COUNT(*) is then 0).
 */
import type { Accumulator } from "./aggregates";
import { SQL_LIMITS } from "./limits";
import type { Env, GroupingNode, Row } from "./plan-nodes";
import type { RunClock } from "./run-clock";
import { limitExceeded } from "./run-error";
import { rowKey, valueKey } from "./values";

interface Group {
  keys: unknown[];
  accumulators: Accumulator[];
  seen: (Set<string> | null)[];
}

/** The group records (grouping values, then aggregate results) that pass HAVING. */
export async function groupRows(
  node: GroupingNode,
  frames: AsyncIterable<Row[]>,
  env: Env,
  clock: RunClock,
  onGroups: (groups: number) => void,
): Promise<Row[]> {
  const groups = new Map<string, Group>();
  const distinctHeld = node.aggregates.map(() => 0);
  const create = (keys: unknown[]): Group => ({
    keys,
    accumulators: node.aggregates.map((a) => a.fn.create()),
    seen: node.aggregates.map((a) => (a.distinct ? new Set<string>() : null)),
  });
  if (node.keys.length === 0) groups.set("", create([]));

  for await (const batch of frames) {
    for (const frame of batch) {
      const keys = node.keys.map((key) => key(frame, env));
      const id = node.keys.length === 0 ? "" : rowKey(keys);
      let group = groups.get(id);
      if (!group) {
        if (groups.size >= SQL_LIMITS.maxGroups)
          throw limitExceeded("groups", SQL_LIMITS.maxGroups, "maxGroups");
        group = create(keys);
        groups.set(id, group);
        onGroups(groups.size);
      }
      node.aggregates.forEach((aggregate, i) => {
        const values = aggregate.args.map((arg) => arg(frame, env));
        const seen = group.seen[i];
        if (seen) {
          const first = values[0];
          if (first === null || first === undefined) return;
          const key = valueKey(first);
          if (seen.has(key)) return;
          seen.add(key);
          if (++(distinctHeld[i] as number) > SQL_LIMITS.maxDistinct) {
            throw limitExceeded("distinct values in one aggregate", SQL_LIMITS.maxDistinct, "maxDistinct");
          }
        }
        (group.accumulators[i] as Accumulator).add(values);
      });
    }
  }

  const records: Row[] = [];
  for (const group of groups.values()) {
    const record = [...group.keys, ...group.accumulators.map((a) => a.result())];
    if (!node.having || node.having(record, env) === true) records.push(record);
    if (clock.due()) await clock.pause();
  }
  return records;
}
