import { describe, expect, it } from "vitest";
import { jsonObject, jsonOf } from "../src/http/json-body";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("reading a forwarded body's JSON", () => {
  it("reads UTF-8 JSON as it is", () => {
    expect(jsonOf(bytes('{"query":"é","page":2}'))).toEqual({ query: "é", page: 2 });
    expect(jsonOf(bytes("[1,2]"))).toEqual([1, 2]);
    expect(jsonObject(bytes('{"target":{"host_id":"1.1.1.1"}}'))).toEqual({ target: { host_id: "1.1.1.1" } });
  });

  it("gives undefined for no body, a body that is not JSON, and bytes that are not UTF-8", () => {
    expect(jsonOf(undefined)).toBeUndefined();
    expect(jsonOf(bytes('{"query":'))).toBeUndefined();
    // A lone continuation byte inside a string: not read as U+FFFD.
    expect(jsonOf(new Uint8Array([0x22, 0x80, 0x22]))).toBeUndefined();
  });

  it("takes only an object as a body's object: not an array, a string or null", () => {
    for (const text of ["[1,2]", '"text"', "null", "3"]) expect(jsonObject(bytes(text))).toBeUndefined();
  });
});
