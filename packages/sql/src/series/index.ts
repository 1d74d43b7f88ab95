export * from "./definitions";
export { certificatesSeries } from "./fields-certificates";
export { IPV4, v1Protocol } from "./fields-ipv4";
export { websitesSeries, type WebPort } from "./fields-websites";
export { recordElements, seriesRow, sourceList, sourceValue } from "./rows";
