#!/usr/bin/env node
// Tenant administration for people: a thin wrapper over the admin API of a running edge.
// The edge URL and admin token come from --edge-url/--admin-token, EDGE_URL/ADMIN_TOKEN, or
// .scangate/local.env (written by the start command).
//
//   node apps/edge/scripts/tenant.mjs create --name alice [--email a@x] [--allowance 1000] [--period daily|monthly|never] [--tier standard]
//   node apps/edge/scripts/tenant.mjs list
//   node apps/edge/scripts/tenant.mjs show <tenant-id>
//   node apps/edge/scripts/tenant.mjs update <tenant-id> [--allowance N] [--period P] [--tier T] [--name N] [--email E] [--used N]
//   node apps/edge/scripts/tenant.mjs disable|enable|delete <tenant-id>
//   node apps/edge/scripts/tenant.mjs rotate <tenant-id> [--grace SECONDS]
//   node apps/edge/scripts/tenant.mjs token <tenant-id> [--grace SECONDS]   (Platform /v3 token; rotates)
//   node apps/edge/scripts/tenant.mjs token-status|revoke-token <tenant-id>
//   node apps/edge/scripts/tenant.mjs audit [--tenant <tenant-id>] [--limit N]
//   node apps/edge/scripts/tenant.mjs usage [--tenant <tenant-id>] [--since ISO-TIME]
//   node apps/edge/scripts/tenant.mjs purge-cache <index> <id>   (ipv4, websites, certificates, hosts, host_names, certificate_hosts, v3_host, v3_certificate, v3_certificate_pem, v3_webproperty)
//   node apps/edge/scripts/tenant.mjs delete-comment <comment-id>
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readLocalEnv } from "./local-setup.mjs";

const OPTIONS = [
  "name",
  "email",
  "allowance",
  "period",
  "tier",
  "used",
  "grace",
  "tenant",
  "limit",
  "since",
  "edge-url",
  "admin-token",
];

export class UsageError extends Error {}

/**
 * `--key value` / `--key=value` options (all take a value) and positionals. Hand-written
 * rather than node:util parseArgs because the edge's tests run this file inside workerd.
 */
export function parseCommandLine(argv) {
  const positionals = [];
  const values = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [key, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!OPTIONS.includes(key)) throw new UsageError(`unknown option --${key}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${key} needs a value`);
    values[key] = value;
  }
  return { positionals, values };
}

function integer(name, value) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function compact(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

function need(id, command) {
  if (!id) throw new UsageError(`${command} needs a tenant id (tnt_...)`);
  return encodeURIComponent(id);
}

/** Turns a command line into one admin API request: { method, path, body? }. */
export function adminRequestFor(argv) {
  const { positionals, values } = parseCommandLine(argv);
  const [command, id, extra] = positionals;
  switch (command) {
    case "create":
      if (!values.name) throw new UsageError("create needs --name");
      return {
        method: "POST",
        path: "/admin/tenants",
        body: compact({
          name: values.name,
          email: values.email,
          allowance: integer("allowance", values.allowance),
          period: values.period,
          tier: values.tier,
        }),
      };
    case "list":
      return { method: "GET", path: "/admin/tenants" };
    case "show":
      return { method: "GET", path: `/admin/tenants/${need(id, command)}` };
    case "update":
      return {
        method: "PATCH",
        path: `/admin/tenants/${need(id, command)}`,
        body: compact({
          name: values.name,
          email: values.email,
          allowance: integer("allowance", values.allowance),
          period: values.period,
          tier: values.tier,
          used: integer("used", values.used),
        }),
      };
    case "disable":
    case "enable":
      return {
        method: "PATCH",
        path: `/admin/tenants/${need(id, command)}`,
        body: { disabled: command === "disable" },
      };
    case "delete":
      return { method: "DELETE", path: `/admin/tenants/${need(id, command)}` };
    case "rotate":
      return {
        method: "POST",
        path: `/admin/tenants/${need(id, command)}/rotate`,
        body: compact({ grace_seconds: integer("grace", values.grace) }),
      };
    case "token":
      return {
        method: "POST",
        path: `/admin/tenants/${need(id, command)}/platform-token`,
        body: compact({ grace_seconds: integer("grace", values.grace) }),
      };
    case "token-status":
      return { method: "GET", path: `/admin/tenants/${need(id, command)}/platform-token` };
    case "revoke-token":
      return { method: "DELETE", path: `/admin/tenants/${need(id, command)}/platform-token` };
    case "audit":
    case "usage": {
      const query = new URLSearchParams(
        compact({ tenant_id: values.tenant, limit: values.limit, since: values.since }),
      );
      return { method: "GET", path: `/admin/${command}${query.size ? `?${query}` : ""}` };
    }
    case "purge-cache":
      if (!id || !extra) throw new UsageError("purge-cache needs an index and an id");
      return {
        method: "DELETE",
        path: `/admin/cache/${encodeURIComponent(id)}/${encodeURIComponent(extra)}`,
      };
    case "delete-comment":
      return { method: "DELETE", path: `/admin/comments/${encodeURIComponent(need(id, command))}` };
    default:
      throw new UsageError(
        `unknown command ${command ?? "(none)"}: create, list, show, update, disable, enable, delete, rotate, audit, usage, purge-cache, delete-comment`,
      );
  }
}

/**
 * Runs one command against the admin API; returns { status, body } (body parsed JSON).
 * `fetch` is injectable so the edge's tests can run the script against the worker itself.
 */
export async function runTenantCommand(argv, { edgeUrl, adminToken, fetch: fetchImpl = fetch }) {
  const request = adminRequestFor(argv);
  const res = await fetchImpl(
    new Request(new URL(request.path, edgeUrl), {
      method: request.method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(request.body ? { "content-type": "application/json" } : {}),
      },
      body: request.body ? JSON.stringify(request.body) : undefined,
    }),
  );
  return { status: res.status, body: await res.json() };
}

async function main(argv) {
  const { values } = parseCommandLine(argv);
  const local = readLocalEnv();
  const edgeUrl = values["edge-url"] ?? process.env.EDGE_URL ?? local.EDGE_URL;
  const adminToken = values["admin-token"] ?? process.env.ADMIN_TOKEN ?? local.ADMIN_TOKEN;
  if (!edgeUrl || !adminToken) {
    throw new UsageError(
      "no edge to talk to: start it (the root start command writes .scangate/local.env) or pass --edge-url and --admin-token",
    );
  }
  const { status, body } = await runTenantCommand(argv, { edgeUrl, adminToken });
  console.log(JSON.stringify(body, null, 2));
  if (body && typeof body === "object" && "api_secret" in body) {
    console.error(
      `\nThe secret is shown only now. Use it as HTTP Basic credentials: ${body.api_id}:${body.api_secret}`,
    );
  }
  if (status >= 400) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(
      error instanceof UsageError
        ? `usage: ${error.message}`
        : error instanceof Error
          ? error.message
          : error,
    );
    process.exitCode = 2;
  });
}
