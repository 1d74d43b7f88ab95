import { describe, expect, it } from "vitest";
import { AssembledBulkAnswers, type BulkRequest } from "../src/cache/bulk-answers";

const A = "a".repeat(64);
const B = "b".repeat(64);

/** The request a bulk body with these fingerprints reads as, with the body's text as its key. */
function request(requested: string[]): BulkRequest & { text: string } {
  return {
    text: JSON.stringify({ fingerprints: requested }),
    requested,
    unique: [...new Set(requested.map((fp) => fp.toLowerCase()))],
  };
}

describe("AssembledBulkAnswers", () => {
  it("sends the kept body again for the same body text with the same entries, and knows its request", () => {
    const answers = new AssembledBulkAnswers(1_000_000);
    const entries = new Map([
      [A, '{"a":1}'],
      [B, '{"b":2}'],
    ]);
    let assembled = 0;
    const assemble = () => {
      assembled += 1;
      return new Blob(["{}"]);
    };
    const asked = request([A, B]);
    expect(answers.request(asked.text)).toBeUndefined();
    const first = answers.body(asked.text, asked, entries, assemble);
    expect(answers.request(asked.text)).toBe(asked);
    // Equal texts in other strings (rows read again from D1) still match.
    const reread = new Map([...entries].map(([k, v]) => [k, `${v} `.trim()]));
    expect(answers.body(asked.text, asked, reread, assemble)).toBe(first);
    expect(assembled).toBe(1);
  });

  it("assembles again when any entry changed, or the body asks otherwise", async () => {
    const answers = new AssembledBulkAnswers(1_000_000);
    const entries = new Map([
      [A, '{"a":1}'],
      [B, '{"b":2}'],
    ]);
    let assembled = 0;
    const ask = (requested: string[], given: ReadonlyMap<string, string>) =>
      answers.body(request(requested).text, request(requested), given, () => {
        assembled += 1;
        return new Blob([JSON.stringify(requested.map((fp) => given.get(fp.toLowerCase()) ?? null))]);
      });
    ask([A, B], entries);
    const changed = new Map([...entries, [B, '{"b":3}']]);
    expect(await ask([A, B], changed).text()).toBe('["{\\"a\\":1}","{\\"b\\":3}"]');
    ask([B, A], changed);
    ask([A.toUpperCase(), B], changed);
    // A certificate no longer known to the cache is a change too.
    expect(await ask([A, B], new Map([[A, '{"a":1}']])).text()).toBe('["{\\"a\\":1}",null]');
    expect(assembled).toBe(5);
    // The last body of each request is the one kept.
    ask([A, B], new Map([[A, '{"a":1}']]));
    expect(assembled).toBe(5);
  });

  it("keeps at most its bytes (each body counted twice), least recently used going first", () => {
    const body = (n: number) => () => new Blob(["x".repeat(n)]);
    const entries = new Map([[A, "{}"]]);
    const answers = new AssembledBulkAnswers(1000);
    answers.body(request([A]).text, request([A]), entries, body(200));
    answers.body(request([B]).text, request([B]), entries, body(200));
    expect(answers.size).toBe(2);
    // Asking for A again makes B the least recently used, and the next answer pushes B out.
    answers.body(request([A]).text, request([A]), entries, body(200));
    answers.body(request([A, B]).text, request([A, B]), entries, body(200));
    expect(answers.size).toBe(2);
    expect(answers.request(request([B]).text)).toBeUndefined();
    expect(answers.request(request([A]).text)).toBeDefined();
    // A body over the bound is answered, not kept; a bound of 0 keeps nothing.
    expect(answers.body(request([B, A]).text, request([B, A]), entries, body(600)).size).toBe(600);
    expect(answers.request(request([B, A]).text)).toBeUndefined();
    const none = new AssembledBulkAnswers(0);
    expect(none.body(request([A]).text, request([A]), entries, body(1)).size).toBe(1);
    expect(none.size).toBe(0);
  });

  it("does not keep the answer of a body longer than any bulk body needs", () => {
    const answers = new AssembledBulkAnswers(1_000_000);
    const padded = { ...request([A]), text: `${JSON.stringify({ fingerprints: [A] })}${" ".repeat(9000)}` };
    answers.body(padded.text, padded, new Map([[A, "{}"]]), () => new Blob(["{}"]));
    expect(answers.size).toBe(0);
  });
});
