/** Polls `done` until it holds (work that happens on its own time, an alarm), for at most 5 s. */
export async function waitFor(done: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 50) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("gave up waiting");
}
