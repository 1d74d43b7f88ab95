import { createApp } from "./app";
import type { Env } from "./env";
import { createJobHandlers } from "./jobs/handlers";

const app = createApp();
const jobs = createJobHandlers();

/** The worker's handlers; queue and scheduled handlers join `fetch` here. */
export default {
  fetch: app.fetch,
  queue: jobs.queue,
  scheduled: jobs.scheduled,
} satisfies ExportedHandler<Env>;
