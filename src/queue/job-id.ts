/**
 * A job id made of two keys (each as 16 hex digits, `high` first): the same job for the
 * same keys whoever sends it, so a job sent twice is one job.
 */
export function uuidOfKeys(high: number, low: number): string {
  const hex = high.toString(16).padStart(16, '0') + low.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
