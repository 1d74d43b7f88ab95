import type { Clock } from "@scangate/core/http";

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
  set(ms: number): void {
    this.time = ms;
  }
}
