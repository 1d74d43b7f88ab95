import { type EdgeConfig, loadConfig } from "./config";
import type { Env } from "./env";
import { createServices, type EdgeServices, type ServiceOverrides } from "./services";

export type Resolved = { ok: true; services: EdgeServices } | { ok: false; problems: string[] };

/**
 * Validates the config and builds the services once per environment (once per isolate in
 * production), so in-memory state (auth cache, single-flight, credential rests) is shared by
 * the requests of an isolate. A bad config is reported on every request until it is fixed.
 */
export class ServiceRegistry {
  private readonly built = new WeakMap<Env, EdgeServices>();

  constructor(
    private readonly overrides: ServiceOverrides | ((config: EdgeConfig) => ServiceOverrides) = {},
  ) {}

  resolve(env: Env): Resolved {
    const existing = this.built.get(env);
    if (existing) return { ok: true, services: existing };
    const loaded = loadConfig(env);
    if (!loaded.ok) return loaded;
    const overrides = typeof this.overrides === "function" ? this.overrides(loaded.config) : this.overrides;
    const services = createServices(env, loaded.config, overrides);
    this.built.set(env, services);
    return { ok: true, services };
  }
}
