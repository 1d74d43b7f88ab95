// The HTTP toolkit both workers share: built on Hono's own utilities, no runtime-specific APIs.
export * from "./base64url";
export * from "./basic-auth";
export * from "./clock";
export * from "./constant-time";
export * from "./http-exceptions";
export * from "./paths";
export * from "./timestamps";
export * from "./request-limits";
export * from "./request-target";
export * from "./request-id";
