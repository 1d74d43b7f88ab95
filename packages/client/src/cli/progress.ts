import type { JobProgress } from "../job-polling";
import type { CliStream } from "./cli-io";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * The progress line of a running job on stderr: a spinner redrawn in place on a terminal,
 * one line per status change otherwise (logs stay readable).
 */
export function jobProgressIndicator(stderr: CliStream, label: string) {
  let last: JobProgress | undefined;
  let lastStatus = "";
  let frame = 0;
  let pending: Promise<void> = Promise.resolve();
  // Writes are chained so lines never interleave, and `done` can wait for them.
  const write = (text: string) => {
    pending = pending.then(() => stderr.write(text)).catch(() => undefined);
  };
  const line = (p: JobProgress) => `${label} ${p.jobId}: ${p.status} (${Math.round(p.elapsedMs / 1000)} s)`;
  const timer = stderr.isTTY
    ? setInterval(() => {
        if (!last) return;
        frame = (frame + 1) % FRAMES.length;
        write(`\r\x1b[2K${FRAMES[frame]} ${line(last)}`);
      }, 120)
    : undefined;

  return {
    onProgress: (progress: JobProgress): void => {
      last = progress;
      if (stderr.isTTY) write(`\r\x1b[2K${FRAMES[frame]} ${line(progress)}`);
      else if (progress.status !== lastStatus) write(`${line(progress)}\n`);
      lastStatus = progress.status;
    },
    done: async (): Promise<void> => {
      if (timer !== undefined) clearInterval(timer);
      if (stderr.isTTY && last) write(`\r\x1b[2K${line(last)}\n`);
      await pending;
    },
  };
}
