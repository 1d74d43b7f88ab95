export { csvField, csvRecord, CSV_LINE_END, isUsableDelimiter } from "./csv";
export { createRowEncoder, type EncodeOptions, type RowEncoder } from "./encoders";
export { nestingPlan, nestRecord, topLevelKeys, type Nested } from "./records";
export { cellText, jsonValue } from "./result-values";
