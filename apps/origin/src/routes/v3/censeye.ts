import {
  ApiError,
  ipAddressSchema,
  parseWebpropertyId,
  v3CenseyeJobInputSchema,
  v3CenseyeJobSchema,
  v3CenseyeJobsQuerySchema,
  v3CenseyeJobsSchema,
  v3CenseyeResultsSchema,
  v3CertificateIdSchema,
  v3InputError,
  v3ValueCountsInputSchema,
  v3ValueCountsSchema,
  V3_CENSEYE_JOB_DURATION_MS,
  V3_CENSEYE_JOB_TTL_MS,
  v3PagingQuerySchema,
  type V3CenseyeResult,
  type V3CenseyeTarget,
  type V3CenseyeTargetKind,
  type V3FieldValuePair,
} from "@scangate/core";
import { MAX_QUERY_PARAMS } from "@scangate/search";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { conditionQuery, defaultPivots, jobOf } from "../../services/v3-censeye";
import { nextPageToken, pageOf, pageRequest } from "../../services/v3-paging";
import { v3Certificate } from "../../services/v3-certificate";
import { compileQuery, registriesOf } from "./cenql";
import { hostAsset } from "./hosts";
import { chargeBefore, pathParam, platformRoute } from "./operation";

/**
 * CensEye (`/v3/threat-hunting/censeye/jobs`, `/v3/threat-hunting/value-counts`): how many
 * assets share each pivot of one asset, as a job (services/v3-censeye.ts), and counts of the
 * caller's own field-value conditions. Counting runs CenQL over the dataset, as search does.
 */

const TARGET_FIELDS = {
  host: "host_id",
  webproperty: "webproperty_id",
  certificate: "certificate_id",
} as const;

/** The one id a target names, and what kind of asset it is (400 unless exactly one is given). */
function targetOf(target: V3CenseyeTarget): { kind: V3CenseyeTargetKind; id: string } {
  const given = (["host_id", "webproperty_id", "certificate_id"] as const).filter(
    (k) => target[k] !== undefined,
  );
  if (given.length !== 1)
    throw v3InputError(
      "body.target",
      "name exactly one of host_id, webproperty_id and certificate_id",
      target,
    );
  const [field] = given as ["host_id" | "webproperty_id" | "certificate_id"];
  const raw = target[field] ?? "";
  if (field === "host_id") {
    if (!ipAddressSchema.safeParse(raw).success)
      throw v3InputError("body.target.host_id", "not an IP address", raw);
    return { kind: "host", id: raw };
  }
  if (field === "certificate_id") {
    if (!v3CertificateIdSchema.safeParse(raw).success)
      throw v3InputError("body.target.certificate_id", "expected a SHA-256 fingerprint (64 hex digits)", raw);
    return { kind: "certificate", id: raw.toLowerCase() };
  }
  const web = parseWebpropertyId(raw);
  if (!web) throw v3InputError("body.target.webproperty_id", "expected hostname:port", raw);
  return { kind: "webproperty", id: `${web.hostname}:${web.port}` };
}

/** The asset's Platform document now; a 400 naming the target when the dataset has none. */
async function targetDocument(
  c: Context<AppEnv>,
  target: { kind: V3CenseyeTargetKind; id: string },
): Promise<unknown> {
  const { dataset, platform } = c.var.services;
  let found: unknown = null;
  if (target.kind === "host") found = (await hostAsset(c, target.id, undefined))?.resource ?? null;
  else if (target.kind === "certificate") {
    const doc = (await dataset.readCertificates([target.id])).get(target.id);
    found = doc === undefined ? null : v3Certificate(doc);
  } else {
    const id = parseWebpropertyId(target.id);
    found = id ? await platform.readWebproperty(id) : null;
  }
  if (found === null)
    throw v3InputError(
      `body.target.${TARGET_FIELDS[target.kind]}`,
      "the dataset has no such asset",
      target.id,
    );
  return found;
}

/**
 * How many assets hold each condition (its pairs together), within `query` when one is given.
 * A condition whose fields do not compile counts null for a pivot (left out) and is a 400 for
 * value counts (`strict`).
 */
async function countConditions(
  c: Context<AppEnv>,
  conditions: readonly (readonly V3FieldValuePair[])[],
  query: string | undefined,
  strict: boolean,
): Promise<(number | null)[]> {
  const registries = await registriesOf(c);
  const scoped = query !== undefined && query.trim() !== "";
  const maxParams = Math.floor(MAX_QUERY_PARAMS / (scoped ? 2 : 1));
  const within = scoped ? compileQuery(c, query, registries, { maxParams }) : null;
  const counts: (number | null)[] = [];
  for (const [i, pairs] of conditions.entries()) {
    const location = `body.and_count_conditions[${i}]`;
    const text = conditionQuery(pairs);
    if (text === null) {
      if (!strict) {
        counts.push(null);
        continue;
      }
      throw v3InputError(
        location,
        "a condition's fields must be of one resource and one nested object",
        pairs,
      );
    }
    let compiled;
    try {
      compiled = compileQuery(c, text, registries, { maxParams }, location);
    } catch (error) {
      if (strict) throw error;
      counts.push(null);
      continue;
    }
    if (within && within.resource !== compiled.resource)
      throw v3InputError(
        location,
        `the query searches ${within.resource} records; count ${within.resource}. fields`,
        pairs,
      );
    const where = within
      ? {
          sql: `(${within.where.sql}) AND (${compiled.where.sql})`,
          params: [...within.where.params, ...compiled.where.params],
        }
      : compiled.where;
    counts.push(await c.var.services.platform.matchCount(compiled.resource, where));
  }
  return counts;
}

export const createJob = platformRoute(
  "threatHuntingCreateCenseyeJob",
  { request: { body: jsonBody(v3CenseyeJobInputSchema) }, result: v3CenseyeJobSchema },
  async (c) => {
    const input = await v3Body(c, v3CenseyeJobInputSchema);
    const target = targetOf(input.target);
    const pivots = defaultPivots(target.kind, await targetDocument(c, target));
    const counts = await countConditions(
      c,
      pivots.map((pair) => [pair]),
      undefined,
      false,
    );
    const results: V3CenseyeResult[] = pivots.flatMap((pair, i) => {
      const count = counts[i];
      return count === null || count === undefined ? [] : [{ count, field_value_pairs: [pair] }];
    });
    await chargeBefore(c, { target: target.kind });
    const now = c.var.services.clock.now();
    const job = await c.var.services.platform.createJob({
      organizationId: c.var.platform.organization.organizationId,
      targetKind: target.kind,
      targetId: target.id,
      results,
      atTime: now,
      createdAt: now,
      completesAt: now + V3_CENSEYE_JOB_DURATION_MS,
      deleteAt: now + V3_CENSEYE_JOB_TTL_MS,
    });
    return { result: jobOf(job, now) };
  },
);

export const listJobs = platformRoute(
  "threatHuntingListCenseyeJobs",
  { request: { query: v3CenseyeJobsQuerySchema }, result: v3CenseyeJobsSchema },
  async (c) => {
    const query = v3Query(c, v3CenseyeJobsQuerySchema);
    const given = {
      host_id: query.host_id,
      webproperty_id: query.webproperty_id,
      certificate_id: query.certificate_id,
    };
    const filter = Object.values(given).some((v) => v !== undefined)
      ? (() => {
          try {
            return targetOf(given);
          } catch {
            throw v3InputError(
              "query",
              "filter by at most one of host_id, webproperty_id and certificate_id, each a valid id",
              given,
            );
          }
        })()
      : null;
    const { platform, cursors, clock } = c.var.services;
    const page = await pageRequest(cursors, `censeye jobs ${JSON.stringify(filter)}`, query);
    const now = clock.now();
    const { jobs, total } = await platform.listJobs(
      c.var.platform.organization.organizationId,
      filter,
      now,
      page.offset,
      page.size,
    );
    const next = await nextPageToken(cursors, page, total);
    return {
      result: { jobs: jobs.map((job) => jobOf(job, now)), ...(next ? { next_page_token: next } : {}) },
    };
  },
);

async function namedJob(c: Context<AppEnv>) {
  const id = pathParam(c, "job_id");
  const job = await c.var.services.platform.readJob(
    c.var.platform.organization.organizationId,
    id,
    c.var.services.clock.now(),
  );
  if (!job) throw new ApiError("not_found", `CensEye job ${JSON.stringify(id)} not found.`);
  return job;
}

const jobParam = z.object({ job_id: z.string() });

export const getJob = platformRoute(
  "threatHuntingGetCenseyeJob",
  { request: { params: jobParam }, result: v3CenseyeJobSchema },
  async (c) => ({ result: jobOf(await namedJob(c), c.var.services.clock.now()) }),
);

export const jobResults = platformRoute(
  "threatHuntingGetCenseyeJobResults",
  {
    request: { params: jobParam, query: v3PagingQuerySchema },
    result: v3CenseyeResultsSchema,
  },
  async (c) => {
    const query = v3Query(c, v3PagingQuerySchema);
    const job = await namedJob(c);
    const { cursors, clock } = c.var.services;
    const page = await pageRequest(cursors, `censeye results ${job.id}`, query);
    // A job still running has no results yet (the SDK: "results may be empty").
    const results = clock.now() >= job.completesAt ? job.results : [];
    const next = await nextPageToken(cursors, page, results.length);
    return { result: { results: pageOf(results, page), ...(next ? { next_page_token: next } : {}) } };
  },
);

export const valueCounts = platformRoute(
  "threatHuntingValueCounts",
  { request: { body: jsonBody(v3ValueCountsInputSchema) }, result: v3ValueCountsSchema },
  async (c) => {
    const input = await v3Body(c, v3ValueCountsInputSchema);
    const conditions = input.and_count_conditions.map((condition) => condition.field_value_pairs);
    const counts = await countConditions(c, conditions, input.query, true);
    return {
      result: { and_count_results: counts.map((n) => n ?? 0) },
      units: { conditions: conditions.length },
    };
  },
);

export const v3CenseyeRoutes = [createJob, listJobs, getJob, jobResults, valueCounts];
