import { describe, expect, it } from "vitest";
import { parseProcStat, workerdCpuMs } from "../src/workerd-cpu";

describe("parseProcStat", () => {
  it("reads the name, parent and user + system time of a /proc/<pid>/stat line", () => {
    const line =
      "4242 (workerd) S 4100 4242 4100 0 -1 4194304 51234 0 12 0 1234 567 0 0 20 0 9 0 777 3600000000 90000 18446744073709551615";
    expect(parseProcStat(line)).toEqual({ name: "workerd", parentPid: 4100, cpuMs: 18_010 });
  });

  it("counts fields from the last parenthesis, so a name with spaces or ')' is read whole", () => {
    const line = "7 (a) b (c)) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 0 0";
    expect(parseProcStat(line)).toEqual({ name: "a) b (c)", parentPid: 1, cpuMs: 70 });
  });

  it("refuses a line it cannot read", () => {
    expect(parseProcStat("garbage")).toBeNull();
    expect(parseProcStat("1 (x) S")).toBeNull();
  });
});

describe("workerdCpuMs", () => {
  it("is zero when this process has started no workerd (and null only without /proc)", () => {
    const total = workerdCpuMs();
    if (process.platform === "linux") expect(total).toBe(0);
    else expect(total).toBeNull();
  });
});
