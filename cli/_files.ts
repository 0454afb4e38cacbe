/**
 * Writing result files so that an interrupted run never leaves a half-written one.
 *
 * @module
 */
import { FileError } from "./_errors.ts";

/**
 * Writes `text` to `path` through a temporary file in the same folder and a rename, so the file
 * is either the old one or the complete new one. Failures are {@linkcode FileError}s naming the
 * path.
 */
export async function writeTextFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp-${Date.now()}`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new FileError(`cannot write '${path}': ${describeOsError(error)}`);
  }
}

/** A short reason for a file-system error. */
export function describeOsError(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "no such file or directory";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "is a directory";
  if (error instanceof Deno.errors.AlreadyExists) return "already exists";
  return (error as Error).message.split("\n")[0];
}
