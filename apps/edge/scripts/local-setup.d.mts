export const EDGE_DIR: string;
export const REPO_ROOT: string;
export const LOCAL_ENV_FILE: string;
export const ORIGIN_DEFAULT_CREDENTIAL: { api_id: string; api_secret: string };
export const ORIGIN_DEFAULT_PLATFORM_CREDENTIAL: { token: string; organization_id: string };
export const DEMO_TENANT_NAME: string;
export function parseEnvText(text: string): Record<string, string>;
export function readEnvFile(file: string): Record<string, string>;
export function readLocalEnv(file?: string): Record<string, string>;
export function writeLocalEnv(values: Record<string, string>, file?: string): Record<string, string>;
export function ensureDevVars(options?: { file?: string; originApiId?: string; originApiSecret?: string }): {
  adminToken: string;
  upstreamCredentials: Array<{ api_id: string; api_secret: string }>;
  created: string[];
};
export function ensureLocalSecrets(options?: { root?: string; devVarsFile?: string }): {
  adminToken: string;
  originApiId: string;
  originApiSecret: string;
};
export function ensureDemoTenant(options: {
  edgeUrl: string;
  adminToken: string;
  root?: string;
  known?: Record<string, string>;
  fetch?: (request: Request) => Promise<Response>;
}): Promise<{ tenantId: string | null; apiId: string; apiSecret: string; reused: boolean }>;
export const DEMO_PLATFORM_PROBE: string;
export function ensureDemoPlatformToken(options: {
  edgeUrl: string;
  adminToken: string;
  tenantId: string | null;
  known?: Record<string, string>;
  fetch?: (request: Request) => Promise<Response>;
}): Promise<{ token: string; reused: boolean } | null>;
