import { cenqlPath, type LegacyIndex } from "./cenql-fields";
import { IPV4_NAMES, perPortName, PORT_VALUE_SPELLINGS, portPath } from "./cenql-convert-v1";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { ownEntry } from "./registry";

/**
 * A v1 report field (`POST /api/v1/report/{index}`: the breakdown of one field over a query's
 * documents) as the Platform's aggregate: the CenQL field, the level whose documents are
 * counted (v1 counts each document once per value), and for a per-port field the condition that
 * keeps its port. The edge ANDs `condition` with the converted query and asks the aggregate with
 * `filter_by_query` so that only that port's values count.
 */
export interface ReportBreakdown {
  /** The aggregate's `field`. */
  field: string;
  /** The aggregate's `count_by_level`: v1 counts documents (`host`), "" is the field's own level. */
  countByLevel: string;
  /** CenQL to AND with the query (the port of a per-port field), or null. */
  condition: string | null;
  /** The aggregate's `filter_by_query`: count only the services `condition` holds for. */
  filterByQuery: boolean;
  /** A bucket key as the v1 report spells it (`tlsv1_2` → `TLSv1.2`). */
  legacyKey: (key: string) => string;
}

const asIs = (key: string) => key;

/** Derived v1 fields: their values are computed from several Platform fields, none of which they are. */
const DERIVED: Readonly<Record<LegacyIndex, readonly string[]>> = {
  hosts: ["protocols", "tags"],
  websites: ["protocols", "tags", "alexa_rank"],
  certificates: ["tags"],
};

function derived(field: string, index: LegacyIndex): QueryError {
  return new QueryError(
    `${quoteToken(field)} has no Platform field to break down by: its values are derived from others on the Platform${
      index === "hosts" ? " (break down services.port or services.service_name instead)" : ""
    }`,
    0,
    field,
  );
}

function hostField(field: string): ReportBreakdown {
  const perPort = perPortName(field);
  if (perPort) {
    return {
      field: `host.services.${portPath(field, perPort.rest, 0)}`,
      countByLevel: "host",
      condition: `host.services.port: ${perPort.port}`,
      filterByQuery: true,
      legacyKey: ownEntry(PORT_VALUE_SPELLINGS, perPort.rest)?.legacy ?? asIs,
    };
  }
  const legacy = ownEntry(IPV4_NAMES, field) ?? field;
  const path = cenqlPath("host", legacy) ?? legacy;
  return {
    field: `host.${path}`,
    countByLevel: "host",
    condition: null,
    filterByQuery: false,
    legacyKey: asIs,
  };
}

function websiteField(field: string): ReportBreakdown {
  const perPort = perPortName(field);
  if (perPort) {
    // A web property is one port of one name: at that port, one property per website.
    return {
      field: `web.${portPath(field, perPort.rest, 0)}`,
      countByLevel: "",
      condition: `web.port: ${perPort.port}`,
      filterByQuery: false,
      legacyKey: ownEntry(PORT_VALUE_SPELLINGS, perPort.rest)?.legacy ?? asIs,
    };
  }
  if (field === "ports")
    return { field: "web.port", countByLevel: "", condition: null, filterByQuery: false, legacyKey: asIs };
  throw new QueryError(
    `${quoteToken(field)} cannot be broken down one per website on the Platform, whose web properties are one port each: break down ports or a per-port field (443.https.get.title)`,
    0,
    field,
  );
}

export function convertLegacyReportField(field: string, index: LegacyIndex): QueryResult<ReportBreakdown> {
  return catchQueryError(() => {
    const name = field.trim();
    if (DERIVED[index].includes(name)) throw derived(name, index);
    if (index === "hosts") return hostField(name);
    if (index === "websites") return websiteField(name);
    const path = cenqlPath("cert", name) ?? name;
    return {
      field: `cert.${path}`,
      countByLevel: "",
      condition: null,
      filterByQuery: false,
      legacyKey: asIs,
    };
  });
}
