/**
 * A progress bar with steps per second on standard error, shown only on a terminal and
 * without `--quiet`.
 *
 * @module
 */
import cliProgress from "cli-progress";

/** Progress display for a known number of steps. */
export interface Progress {
  /** Sets the number of steps done. */
  update(done: number): void;
  /** Removes the bar. */
  stop(): void;
}

/**
 * Creates a progress bar for `total` units (`"steps"` unless told) labelled `label`, or a
 * silent one.
 */
export function createProgress(
  label: string,
  total: number,
  quiet: boolean,
  unit = "steps",
): Progress {
  if (quiet || !Deno.stderr.isTerminal()) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar({
    format:
      `${label} {bar} {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | {eta_formatted} left`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  }, cliProgress.Presets.shades_classic);
  const started = performance.now();
  bar.start(total, 0, { rate: "0" });
  return {
    update(done: number) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(done, { rate: seconds > 0 ? (done / seconds).toFixed(0) : "0" });
    },
    stop() {
      bar.stop();
    },
  };
}
