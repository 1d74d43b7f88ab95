import { ApiError } from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import type { MatchSource } from "../../services/v3-tag-operations";
import { mayManage, type TagRecord, type Viewer } from "../../services/v3-tags";
import { compileQuery, registriesOf } from "./cenql";
import { pathParam } from "./operation";

/**
 * How the tag routes reach a tag: as the caller sees them (a private tag of another member is
 * hidden from members who are not admins), with the organization's bulk operations brought up
 * to now first, so every read shows their progress.
 */

export const tagParam = z.object({ tag_id: z.string() });

export function viewerOf(c: Context<AppEnv>): Viewer {
  const { account, organization, roles } = c.var.platform;
  return { organizationId: organization.organizationId, userId: account.user_id, admin: roles.includes("admin") };
}

/** The assets a bulk create's query matches, page by page; null when it no longer compiles. */
export async function matchSource(c: Context<AppEnv>, query: string): Promise<MatchSource | null> {
  try {
    const { resource, where } = compileQuery(c, query, await registriesOf(c));
    const { platform } = c.var.services;
    return { next: (after, limit) => platform.matchPage(resource, where, after, limit) };
  } catch {
    return null;
  }
}

/** Brings every unfinished bulk operation of the organization to where it is now. */
export async function bringOperationsUpToDate(c: Context<AppEnv>): Promise<void> {
  const { platform, clock } = c.var.services;
  const organizationId = c.var.platform.organization.organizationId;
  const admin: Viewer = { organizationId, userId: "", admin: true };
  for (const op of await platform.unfinishedOperations(organizationId)) {
    const tag = await platform.readTag(admin, op.tagId);
    const source = op.type === "bulk_create" && op.query !== null ? await matchSource(c, op.query) : null;
    await platform.advanceOperation(op, tag, source, clock.now());
  }
}

/** The tag the path names (by id or name) if the caller sees it, its operations brought up to now. */
export async function namedTag(c: Context<AppEnv>): Promise<TagRecord> {
  await bringOperationsUpToDate(c);
  const idOrName = pathParam(c, "tag_id");
  const tag = await c.var.services.platform.readTag(viewerOf(c), idOrName);
  if (!tag) throw new ApiError("not_found", `Tag ${JSON.stringify(idOrName)} not found.`);
  return tag;
}

export function requireManage(c: Context<AppEnv>, tag: TagRecord): void {
  if (!mayManage(viewerOf(c), tag))
    throw new ApiError("forbidden", "Only the tag's creator or an organization admin can change a private tag.");
}
