/**
 * The account endpoint's `YYYY-MM-DD hh:mm:ss` (UTC) of an instant (epoch ms or a Date); with
 * `withMicros`, the `.ffffff` fraction the spec allows on `last_login` (milliseconds, then `000`).
 */
export function accountTimestamp(at: number | Date, withMicros = false): string {
  const iso = new Date(at).toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
  const seconds = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return withMicros ? `${seconds}.${iso.slice(20, 23)}000` : seconds;
}
