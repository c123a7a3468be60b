import { z } from 'zod';

/** Body of writes that have nothing else to say (deletes, leaves): always JSON, as spec §7 reads JSON. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
