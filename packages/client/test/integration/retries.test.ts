import { beforeAll, describe, expect, it } from "vitest";
import { NetworkError, RateLimitError, ServerError, UpstreamError, type RetryEvent } from "../../src/index";
import { limitedEdge } from "./support/limited-edge";
import { faultyFetch, jsonResponse } from "./support/recording-fetch";
import { createTenant, edgeClient, seedOriginWithSnapshots } from "./support/stack";

let tenant: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  await seedOriginWithSnapshots();
  tenant = await createTenant();
});

const burstBody = {
  code: 429,
  status: "error",
  error_type: "rate_limit_exceeded",
  error: "rate limit exceeded",
};

describe("retry after a burst 429", () => {
  it("waits the edge's Retry-After and then gets the answer", async () => {
    const edge = limitedEdge(2, 10);
    const retries: RetryEvent[] = [];
    const client = edgeClient(tenant, {
      fetch: edge.fetch,
      sleep: edge.sleep,
      onRetry: (e) => retries.push(e),
    });
    await client.hosts.view("1.1.1.1");
    await client.hosts.view("8.8.8.8");
    // The third call is over the limit: 429 with Retry-After until the window ends.
    const host = await client.hosts.view("9.9.9.9");
    expect(host.ip).toBe("9.9.9.9");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toBeInstanceOf(RateLimitError);
    const retryAfter = (retries[0]?.error as RateLimitError).retryAfter ?? 0;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(retries[0]?.delayMs).toBe(retryAfter * 1000);
  });

  it("retries a 429 even for a job start, since the service turned it away unprocessed", async () => {
    const { tables } = await edgeClient(tenant).query.seriesDetails("ipv4");
    const { fetch, requests } = faultyFetch([jsonResponse(429, burstBody, { "retry-after": "1" })]);
    const job = await edgeClient(tenant, { fetch }).query.start(`select ip from "${tables.at(-1)}" limit 1`);
    expect(job.status).toBe("pending");
    expect(requests.map((r) => r.method)).toEqual(["POST", "POST"]);
  });
});

describe("retry after 5xx and network errors", () => {
  it("backs off and retries a read after 503 and 502, then returns the real answer", async () => {
    const retries: RetryEvent[] = [];
    const { fetch, requests } = faultyFetch([
      jsonResponse(503, { error_code: 503, error: "unavailable" }),
      jsonResponse(502, { error_code: 502, error: "upstream service error; retry later" }),
    ]);
    const host = await edgeClient(tenant, { fetch, onRetry: (e) => retries.push(e) }).hosts.view("1.1.1.1");
    expect(host.ip).toBe("1.1.1.1");
    expect(requests).toHaveLength(3);
    expect(retries.map((r) => r.error.status)).toEqual([503, 502]);
    // Exponential with jitter: the second delay is drawn from a range twice as large.
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(250);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(500);
    expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(500);
    expect(retries[1]?.delayMs).toBeLessThanOrEqual(1000);
  });

  it("retries a POST read (search) after a network error", async () => {
    const { fetch, requests } = faultyFetch([new TypeError("fetch failed: connection reset")]);
    const page = await edgeClient(tenant, { fetch }).search("ipv4", "*");
    expect(page.status).toBe("ok");
    expect(requests).toHaveLength(2);
  });

  it("gives up after maxRetries with the last error", async () => {
    const faults = Array.from({ length: 5 }, () =>
      jsonResponse(502, { error_code: 502, error: "bad gateway" }),
    );
    const { fetch, requests } = faultyFetch(faults);
    const error = await edgeClient(tenant, { fetch, retry: { maxRetries: 2 } })
      .account()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(requests).toHaveLength(3);
  });

  it("never sends a query or export start twice after a 5xx or network error", async () => {
    const query = faultyFetch([jsonResponse(500, { error_code: 500, error: "unknown error occurred" })]);
    await expect(edgeClient(tenant, { fetch: query.fetch }).query.start("select 1")).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(query.requests).toHaveLength(1);
    const exported = faultyFetch([new TypeError("fetch failed")]);
    await expect(
      edgeClient(tenant, { fetch: exported.fetch }).export.start({ query: "select 1" }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(exported.requests).toHaveLength(1);
  });

  it("does not retry at all with retry: false", async () => {
    const { fetch, requests } = faultyFetch([jsonResponse(503, { error_code: 503, error: "unavailable" })]);
    await expect(edgeClient(tenant, { fetch, retry: false }).account()).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1);
  });
});

describe("cancellation", () => {
  it("sends nothing when the signal is already aborted", async () => {
    const { fetch, requests } = faultyFetch([]);
    const controller = new AbortController();
    controller.abort(new Error("changed my mind"));
    await expect(edgeClient(tenant, { fetch }).account({ signal: controller.signal })).rejects.toThrow(
      "changed my mind",
    );
    expect(requests).toHaveLength(0);
  });

  it("passes the signal to fetch, so an abort ends a request in flight", async () => {
    const hanging = (_input: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason as Error));
      });
    const controller = new AbortController();
    const call = edgeClient(tenant, { fetch: hanging }).account({ signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
  });

  it("ends a Retry-After wait as soon as the signal aborts", async () => {
    const { fetch } = faultyFetch([jsonResponse(429, burstBody, { "retry-after": "30" })]);
    // The real sleep this time: the abort must cut a 30 s wait short.
    const { abortableSleep } = await import("../../src/abortable-sleep");
    const controller = new AbortController();
    const started = Date.now();
    const call = edgeClient(tenant, { fetch, sleep: abortableSleep }).account({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed Ctrl-C")), 20);
    await expect(call).rejects.toThrow("user pressed Ctrl-C");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("turns a per-request timeout into a NetworkError that says so", async () => {
    const hanging = (_input: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(new Error("aborted")));
      });
    const error = await edgeClient(tenant, { fetch: hanging, timeoutMs: 20, retry: false })
      .account()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toContain("timed out after 20 ms");
  });
});
