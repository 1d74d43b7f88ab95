import type { Clock } from "@scangate/core/http";
import type { Upstream, UpstreamAnswer, UpstreamCall } from "./interface";
import { LegacyAnswer, type LegacyCall, PlatformSession } from "./legacy-session";
import type { PlatformUpstream } from "./platform";
import { notImplementedResponse, untranslated } from "../pipeline/untranslated";
import * as hosts from "./legacy-hosts";
import * as v1 from "./legacy-v1";

// The legacy API (v1, v2 hosts) answered from a Platform-only upstream: each legacy call the
// edge would send upstream is translated into /v3 calls through the Platform token pool, and
// their answers reshaped into the legacy body (core's v3/legacy-*.ts). The edge's cache, quota
// and routes work on top unchanged: they see a legacy upstream.

type Translation = (call: LegacyCall) => Promise<Response>;

/** Legacy routes with a Platform equivalent: method, path below the API base, translation. */
const TRANSLATIONS: readonly (readonly [string, RegExp, Translation])[] = [
  ["GET", /^\/v2\/hosts\/search$/, hosts.translateHostsSearch],
  ["GET", /^\/v2\/hosts\/aggregate$/, hosts.translateHostsAggregate],
  ["GET", /^\/v2\/hosts\/([^/]+)$/, hosts.translateHostView],
  ["GET", /^\/v1\/view\/certificates\/([^/]+)$/, v1.translateCertificateView],
  ["POST", /^\/v1\/bulk\/certificates$/, v1.translateCertificateBulk],
  ["POST", /^\/v1\/search\/([^/]+)$/, v1.translateV1Search],
  ["POST", /^\/v1\/report\/([^/]+)$/, v1.translateV1Report],
  ["GET", /^\/v1\/view\/ipv4\/([^/]+)$/, v1.translateIpv4View],
  ["GET", /^\/v1\/view\/websites\/([^/]+)$/, v1.translateWebsiteView],
  ["GET", /^\/v2\/hosts\/([^/]+)\/names$/, hosts.translateHostNames],
  ["GET", /^\/v2\/certificates\/([^/]+)\/hosts$/, hosts.translateCertificateHosts],
  ["GET", /^\/v2\/metadata\/hosts$/, hosts.translateHostsMetadata],
  ["GET", /^\/v2\/experimental\/hosts\/([^/]+)\/events$/, hosts.translateHostEvents],
  ["GET", /^\/v2\/hosts\/([^/]+)\/diff$/, hosts.translateHostDiff],
];

const versionOf = (path: string) => (path.startsWith("/v2/") ? "v2" : "v1");

/** The 501 of a legacy call (`path` below the API base) that no translation reads. */
function untranslatedCall(path: string): Response {
  const message = untranslated("this legacy request has no Platform equivalent").untranslated;
  return notImplementedResponse(versionOf(path), message);
}

/**
 * The legacy upstream over a Platform-only one. Routes with no Platform equivalent declare so
 * and answer their 501 before any upstream call (pipeline/untranslated.ts); a call no
 * translation reads (a request the routes forward as sent) answers a 501 here.
 */
export class LegacyOnPlatformUpstream implements Upstream {
  constructor(
    /** The legacy API base the edge pretends to front (only used to re-root links, which none of ours carry). */
    readonly baseUrl: string,
    private readonly platform: PlatformUpstream,
    private readonly clock: Clock,
  ) {}

  async call(call: UpstreamCall): Promise<UpstreamAnswer> {
    const url = new URL(call.path, "http://legacy.invalid");
    const path = url.pathname;
    const found = TRANSLATIONS.find(([method, pattern]) => method === call.method && pattern.test(path));
    if (!found) return { response: untranslatedCall(path), credentialId: "platform" };
    const [, pattern, translate] = found;
    const session = new PlatformSession(
      this.platform,
      versionOf(path),
      call.signal,
      () => this.clock.now(),
      call.tally,
    );
    try {
      const response = await translate({ session, id: pattern.exec(path)?.[1] ?? "", url, call });
      return { response, credentialId: session.credentialId };
    } catch (error) {
      if (error instanceof LegacyAnswer)
        return { response: error.response, credentialId: session.credentialId };
      throw error;
    }
  }

  revealsCredential(text: string): boolean {
    return this.platform.revealsCredential(text);
  }

  /** Export files never exist here: export jobs are one of the 501s. */
  download(): Promise<Response> {
    return Promise.resolve(untranslatedCall("/v1/export"));
  }
}
