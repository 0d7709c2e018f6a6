export interface BlockInit {
  type: "SERVICE_BLOCK_INIT";
  blockId: string;
  settings: Record<string, unknown>;
  businessId: string;
  locale: string;
  mode: "editor" | "storefront";
  /** In the editor only: verify it on your backend with verifySessionToken. */
  sessionToken?: string;
}
export interface AdminInit {
  type: "service:init";
  businessId: string;
  businessName: string;
  role: string;
  locale: string;
  /** the person looking (contract 17): their account, name, whether they own the business, their permissions */
  accountId: string;
  name: string;
  owner: boolean;
  permissions: string[];
  /** Verify it on your backend with verifySessionToken: the same person, signed. */
  sessionToken: string;
}
export interface BlockUpdate {
  type: "SERVICE_BLOCK_UPDATE";
  blockId: string;
  settings: Record<string, unknown>;
}
export interface Bridge {
  readonly host: string | null;
  onInit(handler: (message: BlockInit | AdminInit) => void): Bridge;
  onUpdate(handler: (message: BlockUpdate) => void): Bridge;
  ready(): Bridge;
  resize(height?: number): Bridge;
  close(): void;
}
export function parentOrigin(win?: Window): string;
export function createBridge(options: { hostOrigins: string[]; window?: Window }): Bridge;
