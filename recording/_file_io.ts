/**
 * Private file helpers of the recording folder: an output buffer that only ever hands whole
 * frames to the file, the checks of the writers' frame protocol, and whole-file reads with
 * one-line errors.
 *
 * @module
 */
import { type AgentColumns, TrajectoryFileError, type TrajectoryHeader } from "./trajectory.ts";

/** Default amount of encoded frames kept before they are written (bytes): 1 MiB. */
export const DEFAULT_FLUSH_BYTES = 1 << 20;

/** The one-line reason of a Deno file-system error, without the OS error number and path. */
export function _osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ \(os error \d+\)[\s\S]*$/, "").split("\n")[0];
}

/** Reads a whole file; a failure becomes a {@linkcode TrajectoryFileError} naming the path. */
export function _readFileBytes(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch (error) {
    throw new TrajectoryFileError(path, _osReason(error));
  }
}

/**
 * A file opened for writing (created or truncated) with an output buffer.
 *
 * Writers encode one frame at a time straight into {@linkcode _OutputFile.bytes} after
 * {@linkcode _OutputFile.reserve}, then {@linkcode _OutputFile.commit} the frame's end. Only
 * committed bytes (whole frames) are ever written, with a loop of synchronous writes until every
 * byte is out, so a killed process leaves at most one partial frame at the end of the file.
 */
export class _OutputFile {
  /** The file. */
  readonly path: string;
  /** Buffer; bytes `[0, length)` are committed and not yet written. */
  bytes: Uint8Array;
  /** Committed bytes waiting in `bytes`. */
  length = 0;
  /** Bytes written to the file so far. */
  written = 0;
  #file: Deno.FsFile | null;
  #flushBytes: number;

  /** Opens `path`; throws a one-line {@linkcode TrajectoryFileError} when that fails. */
  constructor(path: string, flushBytes: number = DEFAULT_FLUSH_BYTES) {
    if (!Number.isInteger(flushBytes) || flushBytes < 1) {
      throw new RangeError(
        `Cannot open trajectory file '${path}' as 'bufferBytes' must be an integer >= 1: current value is ${flushBytes}`,
      );
    }
    this.path = path;
    this.#flushBytes = flushBytes;
    this.bytes = new Uint8Array(Math.max(flushBytes, 4096));
    try {
      this.#file = Deno.openSync(path, { write: true, create: true, truncate: true });
    } catch (error) {
      throw new TrajectoryFileError(path, _osReason(error), { writing: true });
    }
  }

  /** True once {@linkcode _OutputFile.close} ran. */
  get closed(): boolean {
    return this.#file === null;
  }

  /**
   * Makes room for `n` more bytes after the committed ones (writing them out first, or growing
   * the buffer, when needed) and returns the buffer to encode into at `length`.
   */
  reserve(n: number): Uint8Array {
    if (this.#file === null) {
      throw new TrajectoryFileError(this.path, "it is closed", { writing: true });
    }
    if (this.length + n > this.bytes.length) {
      this.flush();
      if (n > this.bytes.length) {
        let size = this.bytes.length;
        while (size < n) size *= 2;
        this.bytes = new Uint8Array(size);
      }
    }
    return this.bytes;
  }

  /** Marks the bytes up to `end` as a complete frame; writes the buffer once it is full enough. */
  commit(end: number): void {
    this.length = end;
    if (this.length >= this.#flushBytes) this.flush();
  }

  /** Writes every committed byte to the file. */
  flush(): void {
    const file = this.#file;
    if (file === null || this.length === 0) return;
    let offset = 0;
    try {
      while (offset < this.length) {
        const n = file.writeSync(this.bytes.subarray(offset, this.length));
        if (n <= 0) throw new Error("the system wrote no bytes");
        offset += n;
      }
    } catch (error) {
      throw new TrajectoryFileError(this.path, _osReason(error), { writing: true });
    } finally {
      this.written += offset;
      // Keep what was not written (after an error) at the start of the buffer.
      this.bytes.copyWithin(0, offset, this.length);
      this.length -= offset;
    }
  }

  /** Writes what is committed and closes the file; later calls do nothing. */
  close(): void {
    const file = this.#file;
    if (file === null) return;
    try {
      this.flush();
    } finally {
      this.#file = null;
      file.close();
    }
  }
}

/**
 * The checks of the frame protocol shared by the text and binary writers: header once, then
 * frames that are begun with a count, filled with exactly that many agents, and ended. Each
 * method throws a {@linkcode TrajectoryFileError} naming the file when the call is out of order.
 */
export class _FrameProtocol {
  #path: string;
  #state: "new" | "ready" | "frame" = "new";
  #frame = 0;
  #count = 0;
  #filled = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Checks that the header comes first, once, with a valid frame rate. */
  header(header: TrajectoryHeader): void {
    if (this.#state !== "new") this.#fail("the header was already written");
    if (!(header.frameRate > 0) || !Number.isFinite(header.frameRate)) {
      this.#fail(`'frameRate' must be a finite number > 0: current value is ${header.frameRate}`);
    }
    this.#state = "ready";
  }

  /** Checks a frame start: after the header, outside a frame, u32 frame number, finite time. */
  begin(frame: number, time: number, count: number): void {
    if (this.#state === "new") this.#fail("a frame was begun before the header");
    if (this.#state === "frame") {
      this.#fail(`frame ${frame} was begun before frame ${this.#frame} ended`);
    }
    if (!Number.isInteger(frame) || frame < 0 || frame > 0xffffffff) {
      this.#fail(`frame number must be an integer in [0, 4294967295]: current value is ${frame}`);
    }
    if (!Number.isFinite(time)) {
      this.#fail(`time of frame ${frame} must be finite: current value is ${time}`);
    }
    if (!Number.isInteger(count) || count < 0 || count > 0x7fffffff) {
      this.#fail(
        `agent count of frame ${frame} must be an integer >= 0: current value is ${count}`,
      );
    }
    this.#frame = frame;
    this.#count = count;
    this.#filled = 0;
    this.#state = "frame";
  }

  /** Checks an agent range; returns the frame row where it goes. */
  add(columns: AgentColumns, begin: number, end: number): number {
    if (this.#state !== "frame") this.#fail("agents were written outside a frame");
    if (
      !Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin ||
      end > columns.px.length
    ) {
      this.#fail(
        `agent range [${begin}, ${end}) is not within the ${columns.px.length} rows of the columns`,
      );
    }
    if (this.#filled + end - begin > this.#count) {
      this.#fail(
        `frame ${this.#frame} was declared with ${this.#count} agents but more were written`,
      );
    }
    const row = this.#filled;
    this.#filled += end - begin;
    return row;
  }

  /** Checks that the frame holds the declared number of agents. */
  end(): void {
    if (this.#state !== "frame") this.#fail("a frame was ended that was not begun");
    if (this.#filled !== this.#count) {
      this.#fail(
        `frame ${this.#frame} was declared with ${this.#count} agents but ${this.#filled} were written`,
      );
    }
    this.#state = "ready";
  }

  /** Drops a frame begun but not ended (on close). */
  abandon(): void {
    if (this.#state === "frame") this.#state = "ready";
  }

  #fail(reason: string): never {
    throw new TrajectoryFileError(this.#path, reason, { writing: true });
  }
}
