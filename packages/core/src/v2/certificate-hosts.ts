import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { ipAddressSchema, sha256FingerprintSchema } from "../indexes";
import {
  CERTIFICATE_HOSTS_PER_PAGE_DEFAULT,
  CERTIFICATE_HOSTS_PER_PAGE_MAX,
  CERTIFICATE_HOSTS_PER_PAGE_MIN,
} from "../limits";
import { integerParam } from "../params";
import { pageLinksSchema } from "./links";

// GET /api/v2/certificates/{sha256}/hosts (`CensysCerts.get_hosts_by_cert`, which returns
// `(result.hosts, result.links)`): the hosts whose services present the certificate now.

export const certificateHostsParamsSchema = z.object({ sha256: sha256FingerprintSchema });

export const certificateHostsQuerySchema = z.object({
  /** Ours: the client sends none. */
  per_page: integerParam(CERTIFICATE_HOSTS_PER_PAGE_MIN, CERTIFICATE_HOSTS_PER_PAGE_MAX).default(
    CERTIFICATE_HOSTS_PER_PAGE_DEFAULT,
  ),
  /** Opaque; `per_page` must match the call that produced it. */
  cursor: z.string().optional(),
});
export type CertificateHostsQuery = z.infer<typeof certificateHostsQuerySchema>;

export const certificateHostSchema = z.looseObject({
  ip: ipAddressSchema,
  /** A virtual host's name; absent for a host reached by address. */
  name: z.string().optional(),
  /** When a service of the host was last seen presenting the certificate. */
  observed_at: rfc3339Schema,
  /** When the host was first seen presenting it. */
  first_observed_at: rfc3339Schema,
});
export type CertificateHost = z.infer<typeof certificateHostSchema>;

export const certificateHostsResultSchema = z
  .object({
    /**
     * The certificate, lowercase hex. Inferred: the client's fixture names this `fp`, its later
     * observations fixture `fingerprint`; the client reads only `hosts` and `links`.
     */
    fingerprint: sha256FingerprintSchema.optional(),
    hosts: z.array(certificateHostSchema),
    /** The fixture shows `next`; `prev` is here as on every v2 page ("" at the ends). */
    links: pageLinksSchema,
  })
  .loose();
export type CertificateHostsResult = z.infer<typeof certificateHostsResultSchema>;
