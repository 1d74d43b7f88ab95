import { ApiError, requireUtf8Query } from "@scangate/core";
import type { Context } from "hono";
import type { AppEnv } from "./context";
import type { CursorBinding, CursorPosition } from "../services/cursor";

// The inputs every v2 hosts route reads the same way, so each refuses bad input with one answer:
// an IP or a time that cannot be one is the spec's 422 (core's v2/inputs.ts), a cursor the service
// did not issue for these parameters a 400.

/** Query parameters as core's schemas expect them: repeated `fields` as a list. */
export function queryParams(c: Context<AppEnv>): Record<string, unknown> {
  requireUtf8Query(c.req.url);
  const params: Record<string, unknown> = { ...c.req.query() };
  const fields = c.req.queries("fields");
  if (fields) params.fields = fields;
  return params;
}

/**
 * A cursor this service issued for these parameters, or a 400 saying why not. `parameters`
 * names what the cursor is bound to, for the message.
 */
export async function decodeCursor(
  c: Context<AppEnv>,
  token: string,
  binding: CursorBinding,
  parameters = "q or per_page",
): Promise<CursorPosition> {
  const decoded = await c.var.services.cursors.decode(token, binding);
  if (decoded.ok) return decoded.position;
  const why = {
    malformed: "cursor is not a cursor this service issued",
    forged: "cursor signature is invalid",
    mismatched: `cursor was issued for a different ${parameters}; repeat the parameters of the call that returned it`,
  }[decoded.reason];
  throw new ApiError("bad_request", `Invalid cursor: ${why}`);
}
