import { z } from 'zod';

/** `GET /api/config` (API_PATHS.serverConfig): what the browser needs before anyone signs in. */
export const serverConfigSchema = z.object({
  /** False on a server run without paid plans (BILLING=off): no usage banner, no upgrade offers. */
  billing: z.boolean(),
  /**
   * The landing's terms notice links: the operator's pages (TERMS_URL, PRIVACY_URL), else the
   * server's own default texts (/legal/terms, /legal/privacy).
   */
  termsUrl: z.url(),
  privacyUrl: z.url(),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;
