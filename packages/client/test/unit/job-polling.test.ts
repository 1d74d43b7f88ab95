import { describe, expect, it } from "vitest";
import { JobTimeoutError } from "../../src/errors";
import { pollDelay, waitForJob, type JobProgress } from "../../src/job-polling";

/** A clock that only moves when the poller sleeps. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    deps: {
      now: () => now,
      sleep: (ms: number) => {
        sleeps.push(ms);
        now += ms;
        return Promise.resolve();
      },
    },
  };
}

describe("pollDelay", () => {
  it("grows by half each poll up to the cap", () => {
    expect([0, 1, 2, 3, 10].map((n) => pollDelay(n, 1000, 3000))).toEqual([1000, 1500, 2250, 3000, 3000]);
  });
});

describe("waitForJob", () => {
  it("polls with growing delays until the job leaves pending and reports each poll", async () => {
    const time = fakeTime();
    const statuses = ["pending", "pending", "success"];
    const progress: JobProgress[] = [];
    const done = await waitForJob(
      { job_id: "job_1", status: "pending" },
      () => Promise.resolve({ job_id: "job_1", status: statuses.shift() ?? "success" }),
      { onProgress: (p) => progress.push(p), pollIntervalMs: 100, maxPollIntervalMs: 200 },
      time.deps,
    );
    expect(done.status).toBe("success");
    expect(time.sleeps).toEqual([100, 150, 200]);
    expect(progress.map((p) => [p.polls, p.status, p.elapsedMs])).toEqual([
      [0, "pending", 0],
      [1, "pending", 100],
      [2, "pending", 250],
      [3, "success", 450],
    ]);
  });

  it("returns a job that is already done without polling", async () => {
    const time = fakeTime();
    const done = await waitForJob(
      { job_id: "j", status: "error" },
      () => Promise.reject(new Error("no poll")),
      {},
      time.deps,
    );
    expect(done.status).toBe("error");
    expect(time.sleeps).toEqual([]);
  });

  it("gives up with JobTimeoutError once the next poll would pass timeoutMs", async () => {
    const time = fakeTime();
    const wait = waitForJob(
      { job_id: "job_slow", status: "pending" },
      () => Promise.resolve({ job_id: "job_slow", status: "pending" }),
      { pollIntervalMs: 1000, maxPollIntervalMs: 1000, timeoutMs: 3500 },
      time.deps,
    );
    await expect(wait).rejects.toBeInstanceOf(JobTimeoutError);
    await expect(wait).rejects.toMatchObject({ jobId: "job_slow" });
    expect(time.sleeps).toEqual([1000, 1000, 1000]);
  });
});
