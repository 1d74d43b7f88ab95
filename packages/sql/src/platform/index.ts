export { platformField, type PlatformField } from "./fields";
export {
  planPlatformQuery,
  type NullGroup,
  type PlatformAnswer,
  type PlatformPlan,
  type PlatformPlanOptions,
} from "./plan";
export { pushdown, type Pushed, type PushdownContext, type PushdownField } from "./pushdown";
export { certificateRow, hostRow, websiteRow } from "./rows";
export {
  newPlatformRunStats,
  runPlatformPlan,
  type PlatformOperation,
  type PlatformRunStats,
  type PlatformSearch,
} from "./run";
export {
  PLATFORM_SERIES_GAPS,
  PLATFORM_WEB_PORTS,
  platformCatalog,
  platformDay,
  platformDefinitions,
  platformSeriesDetails,
  platformSeriesList,
  type PlatformCatalog,
  type PlatformDefinitions,
  type PlatformSeriesOptions,
} from "./series";
