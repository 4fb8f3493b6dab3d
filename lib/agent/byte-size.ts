const KiB = 1024;
const MiB = 1024 * KiB;

/** A size as a person reads it: `1 MiB`, `64 KiB`, or exactly `1500 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
