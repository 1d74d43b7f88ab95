import type { Clock } from "@scangate/core/http";

// The one source of "now" for the origin, so tests can pin time (quota periods, relative dates):
// the Clock both workers share (epoch milliseconds).
export { systemClock, type Clock } from "@scangate/core/http";

/** A clock that always answers `at` (tests). */
export function fixedClock(at: Date | string): Clock {
  const ms = typeof at === "string" ? Date.parse(at) : at.getTime();
  return { now: () => ms };
}
