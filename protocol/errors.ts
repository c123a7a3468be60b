import { z } from 'zod';

/** Every error body carries `message`; channel creation failures carry `error` too (spec §3). */
export const errorBodySchema = z.object({ message: z.string().optional(), error: z.string().optional() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
