import { v3AccountRoutes } from "./accounts";
import { v3CenseyeRoutes } from "./censeye";
import { v3CertificateRoutes } from "./certificates";
import { v3CollectionRoutes } from "./collections";
import { v3CommentRoutes } from "./comments";
import { v3DnsRoutes } from "./dns";
import { v3HistoryRoutes } from "./history";
import { v3HostRoutes } from "./hosts";
import { v3MemberRoutes } from "./members";
import { v3ScanRoutes } from "./scans";
import { v3SearchRoutes } from "./search";
import { v3TagOperationRoutes } from "./tag-operations";
import { v3TagRoutes } from "./tags";
import { v3ThreatRoutes } from "./threats";
import { v3WebpropertyRoutes } from "./webproperties";

/** The Platform API (v3) over the dataset: every operation of core's V3_OPERATIONS. */
export const v3Routes = [
  ...v3HostRoutes,
  ...v3HistoryRoutes,
  ...v3CertificateRoutes,
  ...v3WebpropertyRoutes,
  ...v3SearchRoutes,
  ...v3DnsRoutes,
  ...v3ScanRoutes,
  ...v3CollectionRoutes,
  ...v3TagRoutes,
  ...v3TagOperationRoutes,
  ...v3CommentRoutes,
  ...v3CenseyeRoutes,
  ...v3ThreatRoutes,
  ...v3MemberRoutes,
  ...v3AccountRoutes,
];
