import { z } from "zod";
import { HOST_NAMES_PER_PAGE_DEFAULT, HOST_NAMES_PER_PAGE_MAX, HOST_NAMES_PER_PAGE_MIN } from "../limits";
import { integerParam } from "../params";
import { pageLinksSchema } from "./links";

// GET /api/v2/hosts/{ip}/names (the official client's `CensysHosts.view_host_names`, which
// returns `result.names`). The client's test fixture shows `names` and the `prev`/`next` links;
// where the links sit (inside `result`, as in every other v2 page) is inferred.

export const hostNamesQuerySchema = z.object({
  per_page: integerParam(HOST_NAMES_PER_PAGE_MIN, HOST_NAMES_PER_PAGE_MAX).default(
    HOST_NAMES_PER_PAGE_DEFAULT,
  ),
  /** Opaque; `per_page` must match the call that produced it. */
  cursor: z.string().optional(),
});
export type HostNamesQuery = z.infer<typeof hostNamesQuerySchema>;

export const hostNamesResultSchema = z
  .object({
    /** Domain names the host answered for (its certificates, its HTTP), sorted, each once. */
    names: z.array(z.string()),
    links: pageLinksSchema,
  })
  .loose();
export type HostNamesResult = z.infer<typeof hostNamesResultSchema>;
