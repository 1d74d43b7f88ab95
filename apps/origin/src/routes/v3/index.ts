import { v3AccountRoutes } from "./accounts";
import { v3CertificateRoutes } from "./certificates";
import { v3HostRoutes } from "./hosts";
import { v3SearchRoutes } from "./search";
import { v3WebpropertyRoutes } from "./webproperties";

/** The Platform API (v3) over the dataset: global data lookups, global search and account management. */
export const v3Routes = [
  ...v3HostRoutes,
  ...v3CertificateRoutes,
  ...v3WebpropertyRoutes,
  ...v3SearchRoutes,
  ...v3AccountRoutes,
];
