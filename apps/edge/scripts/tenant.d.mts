export class UsageError extends Error {}
export interface AdminRequest {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}
export function adminRequestFor(argv: string[]): AdminRequest;
export function runTenantCommand(
  argv: string[],
  options: { edgeUrl: string; adminToken: string; fetch?: (request: Request) => Promise<Response> },
): Promise<{ status: number; body: unknown }>;
export function parseCommandLine(argv: string[]): { positionals: string[]; values: Record<string, string> };
