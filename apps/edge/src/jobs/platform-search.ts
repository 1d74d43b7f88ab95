import type { PlatformSearch } from "@scangate/sql/platform";
import { withDeadline } from "../upstream/relay";
import { type PlatformUpstream, problemDetail } from "../upstream/platform";
import { jsonOfText } from "../http/json-body";

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
    const { status, json } = await withDeadline(timeoutMs, async (signal) => {
      const { response } = await platform.call({
        method: "POST",
        target,
        body: new TextEncoder().encode(JSON.stringify(body)),
        contentType: "application/json",
        signal,
      });
      return { status: response.status, json: jsonOfText(await response.text()) };
    }).catch((error: unknown) => {
      throw new JobFailure(
        `the Platform search could not be reached or did not answer in time (${String(error)}); retry the job`,
      );
    });
    if (status < 200 || status >= 300) {
      const detail = problemDetail(json);
      throw new JobFailure(
        `the Platform search answered HTTP ${status}${detail === undefined ? "" : `: ${detail}`}`,
      );
    }
    const result = (json as { result?: T } | undefined)?.result;
    if (result === undefined)
      throw new JobFailure("the Platform search answered with no result; retry the job");
    return result;
  };
  return {
    query: (input) => call("/v3/global/search/query", input),
    aggregate: (input) => call("/v3/global/search/aggregate", input),
  };
}
