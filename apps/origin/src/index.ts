import { createApp } from "./app";
import type { Env } from "./env";
import { createJobHandlers } from "./jobs/handlers";
import { buildHistoryIndex } from "./services/v3-history-index";

const app = createApp();
const jobs = createJobHandlers();

/** How long a scheduled run spends building the Platform's history index (a run is a minute). */
const HISTORY_INDEX_BUDGET_MS = 20_000;

/** The worker's handlers; queue and scheduled handlers join `fetch` here. */
export default {
  fetch: app.fetch,
  queue: jobs.queue,
  async scheduled(controller, env) {
    await jobs.scheduled(controller, env);
    // The by-name DNS and certificate observation routes read this index; building it here
    // means no request of theirs waits for it after a seed.
    await buildHistoryIndex(env.DB, HISTORY_INDEX_BUDGET_MS);
  },
} satisfies ExportedHandler<Env>;
