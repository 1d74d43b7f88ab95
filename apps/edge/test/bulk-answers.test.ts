import { describe, expect, it } from "vitest";
import { AssembledBulkAnswers } from "../src/cache/bulk-answers";

const A = "a".repeat(64);
const B = "b".repeat(64);

/** An assembler that counts its calls and spells the entries it was given. */
function assembler(entries: ReadonlyMap<string, string>, requested: readonly string[]) {
  const calls = { n: 0 };
  const assemble = () => {
    calls.n += 1;
    return new Blob([JSON.stringify(requested.map((fp) => entries.get(fp.toLowerCase()) ?? null))]);
  };
  return { calls, assemble };
}

describe("AssembledBulkAnswers", () => {
  it("sends the kept body again for the same request with the same entries", () => {
    const answers = new AssembledBulkAnswers(1_000_000);
    const entries = new Map([
      [A, '{"a":1}'],
      [B, '{"b":2}'],
    ]);
    const { calls, assemble } = assembler(entries, [A, B]);
    const first = answers.body([A, B], entries, assemble);
    // Equal texts in other strings (rows read again from D1) still match.
    const again = answers.body([A, B], new Map([...entries].map(([k, v]) => [k, `${v} `.trim()])), assemble);
    expect(again).toBe(first);
    expect(calls.n).toBe(1);
  });

  it("assembles again when any entry changed, or the fingerprints are spelled or ordered otherwise", async () => {
    const answers = new AssembledBulkAnswers(1_000_000);
    const entries = new Map([
      [A, '{"a":1}'],
      [B, '{"b":2}'],
    ]);
    const calls = { n: 0 };
    const ask = (requested: string[], given: ReadonlyMap<string, string>) =>
      answers.body(requested, given, () => {
        calls.n += 1;
        return new Blob([JSON.stringify(requested.map((fp) => given.get(fp.toLowerCase()) ?? null))]);
      });
    ask([A, B], entries);
    const changed = new Map([...entries, [B, '{"b":3}']]);
    expect(await ask([A, B], changed).text()).toBe('["{\\"a\\":1}","{\\"b\\":3}"]');
    ask([B, A], changed);
    ask([A.toUpperCase(), B], changed);
    // A certificate no longer known to the cache is a change too.
    expect(await ask([A, B], new Map([[A, '{"a":1}']])).text()).toBe('["{\\"a\\":1}",null]');
    expect(calls.n).toBe(5);
    // The last body of each request is the one kept.
    ask([A, B], new Map([[A, '{"a":1}']]));
    expect(calls.n).toBe(5);
  });

  it("keeps at most its bytes (each body counted twice), least recently used going first", () => {
    const body = (n: number) => () => new Blob(["x".repeat(n)]);
    const entries = new Map([[A, "{}"]]);
    const answers = new AssembledBulkAnswers(1000);
    answers.body([A], entries, body(200));
    answers.body([B], entries, body(200));
    expect(answers.size).toBe(2);
    // Asking for A again makes B the least recently used.
    answers.body([A], entries, body(200));
    answers.body([A, B], entries, body(200));
    expect(answers.size).toBe(2);
    let assembled = 0;
    answers.body([B], entries, () => {
      assembled += 1;
      return new Blob(["x".repeat(200)]);
    });
    expect(assembled).toBe(1);
    // A body over the bound is answered, not kept.
    const large = answers.body([B, A], entries, body(600));
    expect(large.size).toBe(600);
    expect(answers.size).toBe(2);
    expect(new AssembledBulkAnswers(0).body([A], entries, body(1)).size).toBe(1);
  });
});
