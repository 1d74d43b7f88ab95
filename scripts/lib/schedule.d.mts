export interface CronTrigger {
  worker: string;
  cron: string;
}

export interface ScheduleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export function nextRun(cron: string, after: number): number;
export function scheduleCrons<T extends CronTrigger>(
  triggers: T[],
  fire: (trigger: T, scheduledTime: number) => Promise<void>,
  options?: { onError?: (error: unknown, trigger: T) => void; clock?: ScheduleClock },
): { stop(): void };
export function readCronTriggers(
  configs: Record<string, string>,
  options?: { cwd?: string },
): Promise<CronTrigger[]>;
export function fireScheduled(
  baseUrl: string,
  cron: string,
  scheduledTime: number,
  options?: { signal?: AbortSignal },
): Promise<void>;
export function withoutCronNotice(): (line: string) => boolean;
