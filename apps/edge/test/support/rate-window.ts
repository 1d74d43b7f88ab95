/**
 * Waits, when needed, so that the next `needMs` fall inside one window of a real Workers Rate
 * Limiting binding. Locally (Miniflare) a binding counts in fixed windows aligned to the wall
 * clock (`floor(now / period)`), so a test that spends a bucket and expects the refusal fails
 * when a window boundary passes in between; such a test starts just after a boundary instead.
 */
export async function withinOneRateWindow(periodSeconds: number, needMs: number): Promise<void> {
  const periodMs = periodSeconds * 1_000;
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
