import { v3AccountRoutes } from "./accounts";
import { v3CertificateRoutes } from "./certificates";
import { v3DnsRoutes } from "./dns";
import { v3HostRoutes } from "./hosts";
import { v3SearchRoutes } from "./search";
import { v3WebpropertyRoutes } from "./webproperties";

/**
 * The Platform API (v3) over the dataset: every operation of core's V3_OPERATIONS that the
 * origin serves, global data, collections, tags and comments, threat hunting and account
 * management.
 */
export const v3Routes = [
  ...v3HostRoutes,
  ...v3CertificateRoutes,
  ...v3WebpropertyRoutes,
  ...v3SearchRoutes,
  ...v3DnsRoutes,
  ...v3AccountRoutes,
];
