import { v3ThreatsListSchema, v3ThreatsQuerySchema } from "@scangate/core";
import type { CenqlResource } from "@scangate/search";
import { THREATS } from "../../dataset/threats";
import { v3Query } from "../../http/v3-inputs";
import type { CompiledWhere } from "../../services/search-engine";
import { threatList, type AssetFilter } from "../../services/v3-threats";
import { compileQuery, registriesOf } from "./cenql";
import { platformRoute } from "./operation";

/**
 * GET /v3/threat-hunting/threats: the active threats of the dataset (services/v3-threats.ts),
 * counted on the hosts and web properties `query` selects. The query is read as search reads
 * it: each resource it names selects that resource's assets, so a query of host fields counts
 * no web property and one of web fields no host (`host.services.threats.name = "Sliver" or
 * web.threats.name = "Sliver"` selects both). No query, an empty one or `*` counts every asset.
 * A query that does not compile is a 400 naming `query.query`, as search's is.
 */

const THREAT_ID_FIELD = "services.threats.id";

/** The assets of each kind the query selects. */
function filters(parts: readonly { resource: CenqlResource; where: CompiledWhere }[]) {
  const of = (resource: CenqlResource): AssetFilter =>
    parts.find((part) => part.resource === resource)?.where ?? null;
  return { hosts: of("host"), web: of("web") };
}

export const listThreats = platformRoute(
  "threatHuntingListThreats",
  { request: { query: v3ThreatsQuerySchema }, result: v3ThreatsListSchema },
  async (c) => {
    const { query = "" } = v3Query(c, v3ThreatsQuerySchema);
    const registries = await registriesOf(c);
    let selected: { hosts: AssetFilter; web: AssetFilter } = { hosts: "all", web: "all" };
    if (query.trim() !== "" && query.trim() !== "*") {
      const { resource, where } = compileQuery(c, query, registries, {}, "query.query");
      const { others = [], ...first } = where;
      selected = filters([{ resource, where: first }, ...others]);
    }
    const field = registries.host.fields[THREAT_ID_FIELD]?.storage;
    // A dataset whose hosts carry no threat has no such leaf: nothing is active.
    if (field?.kind !== "leaf") return { result: { threats: [] } };
    const counts = await c.var.services.platform.countThreats(field.id, selected.hosts, selected.web);
    return { result: { threats: threatList(THREATS, counts) } };
  },
);

export const v3ThreatRoutes = [listThreats];
