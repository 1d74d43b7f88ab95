/** The service names hosts are seen running, each once, in order (v2 hosts metadata). */
export async function listServiceNames(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT DISTINCT service_name AS name FROM host_services ORDER BY service_name")
    .all<{ name: string }>();
  return results.map((row) => row.name);
}
