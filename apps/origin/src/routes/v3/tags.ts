import {
  ApiError,
  v3InputError,
  v3TagAssignmentInputSchema,
  v3TagAssignmentSchema,
  v3TagAssignmentsListSchema,
  v3TagAssignmentsQuerySchema,
  v3TagCreateInputSchema,
  v3TagSchema,
  v3TagsListSchema,
  v3TagsQuerySchema,
  v3TagUpdateInputSchema,
  V3_ASSET_TAGS_MAX,
  V3_TAG_ASSETS_MAX,
  V3_TAGS_MAX,
} from "@scangate/core";
import { z } from "zod";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { nextPageToken, pageRequest } from "../../services/v3-paging";
import { parseAssetId } from "../../services/v3-records";
import { assignmentOfRecord, tagOfRecord, type TagRecord, type TagWrite } from "../../services/v3-tags";
import { pathParam, platformRoute } from "./operation";
import { namedTag, requireManage, tagParam, viewerOf } from "./tag-access";

/**
 * Tags and tag assignments (`/v3/tags`) of the caller's organization (services/v3-tags.ts).
 * A private tag of another member is not found for members who are not admins; changing or
 * deleting a private tag (or its assignments) takes its creator or an admin (403 otherwise).
 * Reading the organization's tags first brings its bulk operations up to now.
 */

function written(write: TagWrite, name: string): TagRecord {
  if (write.ok) return write.tag;
  if (write.reason === "duplicate_name")
    throw new ApiError("conflict", `A tag named ${JSON.stringify(name)} exists.`, {
      errors: [{ location: "body.name", message: "a tag of this name exists", value: name }],
    });
  throw new ApiError("conflict", `The organization has ${V3_TAGS_MAX} tags, the most it keeps.`);
}

export const createTag = platformRoute(
  "tagsAndCommentsCreateTag",
  { request: { body: jsonBody(v3TagCreateInputSchema) }, result: v3TagSchema },
  async (c) => {
    const input = await v3Body(c, v3TagCreateInputSchema);
    const { platform, clock } = c.var.services;
    const name = input.name.trim();
    const write = await platform.createTag(viewerOf(c), { ...input, name }, clock.now());
    return { result: tagOfRecord(written(write, name)) };
  },
);

export const listTags = platformRoute(
  "tagsAndCommentsListTags",
  { request: { query: v3TagsQuerySchema }, result: v3TagsListSchema },
  async (c) => {
    const query = v3Query(c, v3TagsQuerySchema);
    const { platform, cursors } = c.var.services;
    const { page_size: _size, page_token: _token, ...filters } = query;
    const page = await pageRequest(cursors, `tags ${JSON.stringify(filters)}`, query);
    const { tags, total } = await platform.listTags(
      viewerOf(c),
      { name: query.name, createdBy: query.created_by, privacy: query.privacy, orderBy: query.order_by },
      page.offset,
      page.size,
    );
    const next = await nextPageToken(cursors, page, total);
    return {
      result: { tags: tags.map(tagOfRecord), total_size: total, ...(next ? { next_page_token: next } : {}) },
    };
  },
);

export const getTag = platformRoute(
  "tagsAndCommentsGetTag",
  { request: { params: tagParam }, result: v3TagSchema },
  async (c) => ({ result: tagOfRecord(await namedTag(c)) }),
);

export const updateTag = platformRoute(
  "tagsAndCommentsUpdateTag",
  { request: { params: tagParam, body: jsonBody(v3TagUpdateInputSchema) }, result: v3TagSchema },
  async (c) => {
    const input = await v3Body(c, v3TagUpdateInputSchema);
    const tag = await namedTag(c);
    requireManage(c, tag);
    const name = input.name?.trim();
    const write = await c.var.services.platform.updateTag(
      tag,
      { ...input, name },
      c.var.services.clock.now(),
    );
    return { result: tagOfRecord(written(write, name ?? tag.name)) };
  },
);

export const deleteTag = platformRoute(
  "tagsAndCommentsDeleteTag",
  { request: { params: tagParam } },
  async (c) => {
    const tag = await namedTag(c);
    requireManage(c, tag);
    await c.var.services.platform.deleteTag(tag);
    return {};
  },
);

export const createAssignment = platformRoute(
  "tagsAndCommentsCreateTagAssignment",
  {
    request: { params: tagParam, body: jsonBody(v3TagAssignmentInputSchema) },
    result: v3TagAssignmentSchema,
  },
  async (c) => {
    const input = await v3Body(c, v3TagAssignmentInputSchema);
    const asset = parseAssetId(input.asset_id);
    if (!asset)
      throw v3InputError(
        "body.asset_id",
        "expected a host IP, a certificate SHA-256 fingerprint or a web property hostname:port",
        input.asset_id,
      );
    const tag = await namedTag(c);
    const { platform, clock } = c.var.services;
    const write = await platform.assign(tag, asset, c.var.platform.account.user_id, clock.now());
    if (!write.ok) {
      const why = {
        assigned: `The tag is assigned to ${asset.id} already.`,
        tag_full: `The tag holds ${V3_TAG_ASSETS_MAX} assets, the most a tag may.`,
        asset_full: `${asset.id} carries ${V3_ASSET_TAGS_MAX} tags, the most an asset may.`,
      }[write.reason];
      throw new ApiError("conflict", why);
    }
    return { result: assignmentOfRecord(write.assignment) };
  },
);

export const listAssignments = platformRoute(
  "tagsAndCommentsListTagAssignments",
  { request: { params: tagParam, query: v3TagAssignmentsQuerySchema }, result: v3TagAssignmentsListSchema },
  async (c) => {
    const query = v3Query(c, v3TagAssignmentsQuerySchema);
    const tag = await namedTag(c);
    const { platform, cursors } = c.var.services;
    const { page_size: _size, page_token: _token, ...filters } = query;
    const page = await pageRequest(cursors, `assignments ${tag.id} ${JSON.stringify(filters)}`, query);
    const assetId =
      query.asset_id === undefined ? undefined : (parseAssetId(query.asset_id)?.id ?? query.asset_id);
    const { assignments, total } = await platform.listAssignments(
      tag.id,
      {
        assetId,
        assetType: query.asset_type,
        createdBy: query.created_by,
        createdBefore: query.created_before === undefined ? undefined : Date.parse(query.created_before),
        createdAfter: query.created_after === undefined ? undefined : Date.parse(query.created_after),
        order: query.order_by,
      },
      c.var.services.clock.now(),
      page.offset,
      page.size,
    );
    const next = await nextPageToken(cursors, page, total);
    return {
      result: {
        assignments: assignments.map(assignmentOfRecord),
        total_size: total,
        ...(next ? { next_page_token: next } : {}),
      },
    };
  },
);

export const deleteAssignment = platformRoute(
  "tagsAndCommentsDeleteTagAssignment",
  { request: { params: tagParam.extend({ assignment_id: z.string() }) } },
  async (c) => {
    const tag = await namedTag(c);
    requireManage(c, tag);
    const id = pathParam(c, "assignment_id");
    if (!(await c.var.services.platform.unassign(tag.id, id, c.var.services.clock.now())))
      throw new ApiError("not_found", `Assignment ${JSON.stringify(id)} of this tag not found.`);
    return {};
  },
);

export const v3TagRoutes = [
  createTag,
  listTags,
  getTag,
  updateTag,
  deleteTag,
  createAssignment,
  listAssignments,
  deleteAssignment,
];
