import { z } from 'zod';

/** `GET /api/config` (API_PATHS.serverConfig): what the browser needs before anyone signs in. */
export const serverConfigSchema = z.object({
  /** False on a server run without paid plans (BILLING=off): no usage banner, no upgrade offers. */
  billing: z.boolean(),
  /** The landing page's Terms of Service and Privacy Policy links; null when the operator set none. */
  termsUrl: z.url().nullable(),
  privacyUrl: z.url().nullable(),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;
