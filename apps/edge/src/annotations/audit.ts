import type { AuditAction } from "@scangate/core";
import type { ApiContext } from "../pipeline/exchange";

/** Records a tenant's change to the team's tags or comments in the edge's audit log. */
export function auditAnnotation(
  c: ApiContext,
  action: AuditAction,
  before: object | null,
  after: object | null,
): Promise<void> {
  const { tenant } = c.get("account");
  return c.get("services").audit.record({ actor: tenant.id, action, tenantId: tenant.id, before, after });
}
