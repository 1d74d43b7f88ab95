import type { V1Index } from "@scangate/core";
import type { IndexRegistry } from "@scangate/search";
import { certificatesRegistry, ipv4RegistryV1, websitesRegistry } from "../dataset/registries";

/** How each v1 index is searched and shown: its registry, document column, order and defaults. */
export interface V1IndexStorage {
  registry: IndexRegistry;
  /** Column of the root table holding the v1 document JSON. */
  documentColumn: string;
  /** A stable order for one-indexed pages. */
  orderBy: string;
  /** What a search returns without a `fields` list (as the public service did). */
  defaultFields: readonly string[];
}

export const V1_INDEX_STORAGE: Record<V1Index, V1IndexStorage> = {
  ipv4: {
    registry: ipv4RegistryV1,
    documentColumn: "v1_doc",
    orderBy: "r.ip_num",
    defaultFields: ["ip", "protocols"],
  },
  websites: {
    registry: websitesRegistry,
    documentColumn: "doc",
    orderBy: "r.domain",
    defaultFields: ["domain"],
  },
  certificates: {
    registry: certificatesRegistry,
    documentColumn: "doc",
    orderBy: "r.sha256",
    defaultFields: ["parsed.fingerprint_sha256", "parsed.subject_dn", "parsed.issuer_dn"],
  },
};
