import { ApiError } from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { mayManage, type TagRecord, type Viewer } from "../../services/v3-tags";
import { pathParam } from "./operation";

/**
 * How the tag routes reach a tag: as the caller sees them (a private tag of another member is
 * hidden from members who are not admins), by id or by name.
 */

export const tagParam = z.object({ tag_id: z.string() });

export function viewerOf(c: Context<AppEnv>): Viewer {
  const { account, organization, roles } = c.var.platform;
  return {
    organizationId: organization.organizationId,
    userId: account.user_id,
    admin: roles.includes("admin"),
  };
}

/** The tag the path names (by id or name) if the caller sees it. */
export async function namedTag(c: Context<AppEnv>): Promise<TagRecord> {
  const idOrName = pathParam(c, "tag_id");
  const tag = await c.var.services.platform.readTag(viewerOf(c), idOrName);
  if (!tag) throw new ApiError("not_found", `Tag ${JSON.stringify(idOrName)} not found.`);
  return tag;
}

export function requireManage(c: Context<AppEnv>, tag: TagRecord): void {
  if (!mayManage(viewerOf(c), tag))
    throw new ApiError(
      "forbidden",
      "Only the tag's creator or an organization admin can change a private tag.",
    );
}
