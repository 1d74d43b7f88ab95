import { beforeAll, describe, expect, it } from "vitest";
import { seedTestDataset } from "./seed-fixture";
import { hostFacts } from "./support/dataset-facts";
import { expectProblem, v3Call } from "./v3-requests";

beforeAll(() => seedTestDataset());

/** Every error of the Platform API is application/problem+json in the Platform's shape. */
describe("v3 errors", () => {
  it("answers an unknown v3 path with a 404 problem", async () => {
    const problem = await expectProblem(await v3Call("GET", "/v3/global/asset/nothing-here"), 404);
    expect(problem).toMatchObject({ type: "about:blank", title: "Not Found", status: 404 });
    await expectProblem(await v3Call("GET", "/v3"), 404);
  });

  it("answers a method a path does not take with a 405 problem and Allow", async () => {
    const [host] = await hostFacts();
    const res = await v3Call("DELETE", `/v3/global/asset/host/${host!.ip}`);
    const problem = await expectProblem(res, 405);
    expect(problem.title).toBe("Method Not Allowed");
    expect(res.headers.get("Allow")).toContain("GET");
    const post = await v3Call("PUT", "/v3/global/asset/host", { body: { host_ids: [] } });
    expect((await expectProblem(post, 405)).status).toBe(405);
  });

  it("answers a body that is not JSON with a 400 problem", async () => {
    const problem = await expectProblem(
      await v3Call("POST", "/v3/global/asset/host", { body: "{host_ids: [" }),
      400,
    );
    expect(problem.detail).toMatch(/not valid JSON/);
  });

  it("answers an empty body and a JSON body that is not an object with a 400 problem", async () => {
    await expectProblem(await v3Call("POST", "/v3/global/asset/certificate", { body: "" }), 400);
    const array = await expectProblem(
      await v3Call("POST", "/v3/global/asset/certificate", { body: "[1, 2]" }),
      400,
    );
    expect(array.errors?.[0]?.location).toBe("body");
  });

  it("answers a body that is not UTF-8 with a 400 problem", async () => {
    const res = await v3Call("POST", "/v3/global/asset/webproperty", {
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect((await expectProblem(res, 400)).detail).toMatch(/UTF-8/);
  });

  it("answers a body over the limit with a 413 problem", async () => {
    const big = JSON.stringify({ host_ids: ["1.1.1.1"], pad: "x".repeat(1024 * 1024) });
    await expectProblem(await v3Call("POST", "/v3/global/asset/host", { body: big }), 413);
  });

  it("answers a request target over the limit with a 400 problem", async () => {
    const [host] = await hostFacts();
    const res = await v3Call("GET", `/v3/global/asset/host/${host!.ip}?at_time=${"9".repeat(9000)}`);
    await expectProblem(res, 400);
  });

  it("keeps v1 and v2 errors in their own shapes beside v3", async () => {
    const res = await v3Call("GET", "/api/v2/nothing-here", { token: null });
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ code: 401, status: "Unauthorized" });
  });
});
