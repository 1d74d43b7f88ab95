import type { Clock } from "@scangate/core/http";
import type { Upstream, UpstreamAnswer, UpstreamCall } from "./interface";
import { LegacyAnswer, PlatformSession } from "./legacy-session";
import type { PlatformUpstream } from "./platform";
import { notImplementedResponse, untranslated } from "../pipeline/untranslated";
import * as history from "./legacy-host-history";
import * as hosts from "./legacy-hosts";
import * as v1 from "./legacy-v1";

// The legacy API (v1, v2 hosts) answered from a Platform-only upstream: each legacy call the
// edge would send upstream is translated into /v3 calls through the Platform token pool, and
// their answers reshaped into the legacy body (core's v3/legacy-*.ts). The edge's cache, quota
// and routes work on top unchanged: they see a legacy upstream.

type Translation = (call: UpstreamCall, url: URL, session: PlatformSession) => Promise<Response>;

/** Legacy routes with a Platform equivalent: method, path below the API base, translation. */
const TRANSLATIONS: readonly { method: string; pattern: RegExp; translate: Translation }[] = [
  { method: "GET", pattern: /^\/v2\/hosts\/search$/, translate: hosts.translateHostsSearch },
  { method: "GET", pattern: /^\/v2\/hosts\/aggregate$/, translate: hosts.translateHostsAggregate },
  { method: "GET", pattern: /^\/v2\/hosts\/[^/]+$/, translate: hosts.translateHostView },
  { method: "GET", pattern: /^\/v1\/view\/certificates\/[^/]+$/, translate: v1.translateCertificateView },
  { method: "POST", pattern: /^\/v1\/bulk\/certificates$/, translate: v1.translateCertificateBulk },
  { method: "POST", pattern: /^\/v1\/search\/[^/]+$/, translate: v1.translateV1Search },
  { method: "POST", pattern: /^\/v1\/report\/[^/]+$/, translate: v1.translateV1Report },
  { method: "GET", pattern: /^\/v1\/view\/ipv4\/[^/]+$/, translate: v1.translateIpv4View },
  { method: "GET", pattern: /^\/v1\/view\/websites\/[^/]+$/, translate: v1.translateWebsiteView },
  { method: "GET", pattern: /^\/v2\/hosts\/[^/]+\/names$/, translate: hosts.translateHostNames },
  {
    method: "GET",
    pattern: /^\/v2\/certificates\/[^/]+\/hosts$/,
    translate: hosts.translateCertificateHosts,
  },
  { method: "GET", pattern: /^\/v2\/metadata\/hosts$/, translate: hosts.translateHostsMetadata },
  {
    method: "GET",
    pattern: /^\/v2\/experimental\/hosts\/[^/]+\/events$/,
    translate: history.translateHostEvents,
  },
  { method: "GET", pattern: /^\/v2\/hosts\/[^/]+\/diff$/, translate: history.translateHostDiff },
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
    const route = TRANSLATIONS.find((t) => t.method === call.method && t.pattern.test(path));
    if (!route) return { response: untranslatedCall(path), credentialId: "platform" };
    const session = new PlatformSession(
      this.platform,
      versionOf(path),
      call.signal,
      () => this.clock.now(),
      call.tally,
    );
    try {
      return { response: await route.translate(call, url, session), credentialId: session.credentialId };
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
