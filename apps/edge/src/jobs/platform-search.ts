import type { PlatformSearch } from "@scangate/sql/platform";
import { withDeadline } from "../upstream/relay";
import type { PlatformUpstream } from "../upstream/platform";

/** A failure the job's owner is told about (`error_message`); anything else is retried. */
export class JobFailure extends Error {
  override readonly name = "JobFailure";
}

/**
 * The Platform's global search as a job's SQL reads it: each call through the edge's token
 * pool, within the upstream deadline. A refused query or an upstream failure ends the job with
 * what the Platform said; the Platform bills nothing for it, and the job does not count it.
 */
export function platformSearch(platform: PlatformUpstream, timeoutMs: number): PlatformSearch {
  const call = async <T>(target: string, body: unknown): Promise<T> => {
    const { status, text } = await withDeadline(timeoutMs, async (signal) => {
      const { response } = await platform.call({
        method: "POST",
        target,
        body: new TextEncoder().encode(JSON.stringify(body)),
        contentType: "application/json",
        signal,
      });
      return { status: response.status, text: await response.text() };
    }).catch((error: unknown) => {
      throw new JobFailure(
        `the Platform search could not be reached or did not answer in time (${String(error)}); retry the job`,
      );
    });
    if (status < 200 || status >= 300) {
      let detail = "";
      try {
        const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
        const said = typeof problem.detail === "string" ? problem.detail : problem.title;
        if (typeof said === "string") detail = `: ${said}`;
      } catch {
        // not a problem document
      }
      throw new JobFailure(`the Platform search answered HTTP ${status}${detail}`);
    }
    const result = (JSON.parse(text) as { result?: T }).result;
    if (result === undefined)
      throw new JobFailure("the Platform search answered with no result; retry the job");
    return result;
  };
  return {
    query: (input) => call("/v3/global/search/query", input),
    aggregate: (input) => call("/v3/global/search/aggregate", input),
  };
}
