/**
 * The media types of Platform responses. The SDK matches a success body by its Content-Type
 * (its `src/funcs/globalData*.ts` pass these as `ctype`), so each route answers with its own.
 */
export const V3_MEDIA_TYPES = {
  json: "application/json",
  host: "application/vnd.censys.api.v3.host.v1+json",
  hostTimeline: "application/vnd.censys.api.v3.host_timeline_event.v1+json",
  certificate: "application/vnd.censys.api.v3.certificate.v1+json",
  webproperty: "application/vnd.censys.api.v3.webproperty.v1+json",
  webTimeline: "application/vnd.censys.api.v3.web_timeline_event.v1+json",
  hostEnrichment: "application/vnd.censys.api.v3.host-enrichment.v1+json",
  trackedScan: "application/vnd.censys.api.v3.trackedscan.v1+json",
  pem: "application/x-pem-file",
} as const;
export type V3MediaType = (typeof V3_MEDIA_TYPES)[keyof typeof V3_MEDIA_TYPES];
