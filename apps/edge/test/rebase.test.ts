import { describe, expect, it } from "vitest";
import { rebaseUpstreamLinks } from "../src/upstream/rebase";

describe("upstream link rebasing", () => {
  it("re-roots links to the upstream API at the edge and leaves other links alone", () => {
    const json = {
      a: "https://up.example/api/v1/data/x",
      b: ["https://storage.example/f?sig=1", "https://up.example/apix"],
      c: 3,
    };
    expect(rebaseUpstreamLinks(json, "https://up.example/api/", "https://edge.example/api")).toEqual({
      a: "https://edge.example/api/v1/data/x",
      b: ["https://storage.example/f?sig=1", "https://up.example/apix"],
      c: 3,
    });
  });
});
