/**
 * The account endpoint's `YYYY-MM-DD hh:mm:ss` (UTC) of an instant in epoch milliseconds; with
 * `micros`, the `.ffffff` fraction the spec allows on `last_login` (milliseconds, then `000`).
 */
export function accountTimestamp(ms: number, options: { micros?: boolean } = {}): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
  const seconds = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return options.micros ? `${seconds}.${iso.slice(20, 23)}000` : seconds;
}
