export type {
  FieldDef,
  FieldFamily,
  FieldStorage,
  FieldType,
  IndexRegistry,
  LeafTables,
  ScopeDef,
} from "./registry";
export type {
  Dialect,
  ExistsValue,
  QueryNode,
  RangeBound,
  RangeValue,
  RegexValue,
  SetValue,
  TermValue,
  Value,
  WildcardValue,
} from "./ast";
export { QueryError, type QueryResult } from "./query-error";
export { MAX_NESTING, MAX_QUERY_LENGTH, parseQuery } from "./parser";
export { MAX_QUERY_PARAMS, compileQuery, type CompileOptions } from "./compiler";
export { compileSearch } from "./search";
export {
  AGGREGATE_SCOPE_ALIAS,
  compileAggregate,
  fieldScope,
  summarizeAggregate,
  type AggregateOptions,
  type AggregateStatements,
  type AggregateSummary,
  type BucketRow,
  type TotalsRow,
} from "./aggregate";
export { fieldNames, findField, suggestField, type FoundField } from "./field-lookup";
export { mapKeySegment } from "./field-conditions";
export { textWords } from "./leaf";
export { MAX_PATTERN_BYTES } from "./patterns";
export { MAX_SQL_HEIGHT, type SqlFragment, type SqlParam } from "./sql-expr";
export { formatIpv4, parseIpv4 } from "./ipv4";
export {
  CENQL_INDEX,
  CENQL_RESOURCES,
  ENDPOINT_OBJECTS,
  LABEL_VALUES,
  cenqlPath,
  legacyFieldNames,
  type CenqlResource,
  type LegacyIndex,
} from "./cenql-fields";
export { cenqlField, cenqlTarget, cenqlTargetAll, cenqlTargets, type CenqlTargetOptions } from "./cenql";
export { convertLegacyQuery, type ConvertOptions } from "./cenql-convert";
export { convertLegacyReportField, type ReportBreakdown } from "./cenql-report";
export { DN_ATTRIBUTES, isPortablePrefix, isPortableRegex } from "./cenql-convert-v1";
export { andOf, orOf } from "./ast";
export { printCenql } from "./cenql-print";
export {
  cenqlAggregateField,
  cenqlCountLevels,
  compileCenqlSearch,
  type CenqlAggregateField,
  type CenqlPart,
  unbindableCharacterError,
  type CenqlRegistries,
} from "./cenql-search";
