import { fromBase64Url } from "@scangate/core/http";
import { describe, expect, it } from "vitest";
import { createCursorCodec } from "../src/services/cursor";

const binding = { q: "services.port: 22", perPage: 25 };

describe("cursor codec", () => {
  it("round-trips a position under the same binding", async () => {
    const codec = await createCursorCodec("secret-1");
    for (const position of [
      { direction: "next", key: 0 },
      { direction: "prev", key: 4294967295 },
    ] as const) {
      const token = await codec.encode(position, binding);
      expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(await codec.decode(token, binding)).toEqual({ ok: true, position });
    }
  });

  it("tells a cursor replayed with other parameters from a forged one", async () => {
    const codec = await createCursorCodec("secret-1");
    const token = await codec.encode({ direction: "next", key: 42 }, binding);
    expect(await codec.decode(token, { ...binding, perPage: 26 })).toEqual({
      ok: false,
      reason: "mismatched",
    });
    expect(await codec.decode(token, { ...binding, q: "services.port: 23" })).toEqual({
      ok: false,
      reason: "mismatched",
    });
    const other = await createCursorCodec("secret-2");
    expect(await other.decode(token, binding)).toEqual({ ok: false, reason: "forged" });
    const [payload, signature] = token.split(".");
    const flipped = signature!.startsWith("A") ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    expect(await codec.decode(`${payload}.${flipped}`, binding)).toEqual({ ok: false, reason: "forged" });
  });

  it.each(["", "abc", "a.b.c", "!!!.???", "."])("reads %j as malformed", async (token) => {
    const codec = await createCursorCodec("secret-1");
    expect(await codec.decode(token, binding)).toEqual({ ok: false, reason: "malformed" });
  });

  it("does not reveal the query in the token", async () => {
    const codec = await createCursorCodec("secret-1");
    const token = await codec.encode(
      { direction: "next", key: 7 },
      { q: "secret-looking-query", perPage: 10 },
    );
    const payload = new TextDecoder().decode(fromBase64Url(token.split(".")[0]!)!);
    expect(payload).not.toContain("secret-looking-query");
  });
});
