import type { z } from 'zod';
import type { ClientSocket } from './socket-hub.js';

type Handler = (socket: ClientSocket, message: unknown) => Promise<void>;

/**
 * Routes `/ws` messages by `type` to the feature that owns them (presence now, calls later). Each
 * feature registers its zod schema; a message that fails its schema never reaches the handler.
 */
export class SocketRouter {
  private readonly routes = new Map<string, { schema: z.ZodType; handler: Handler }>();

  on<S extends z.ZodType>(types: readonly string[], schema: S, handler: (socket: ClientSocket, message: z.infer<S>) => Promise<void>): void {
    for (const type of types) this.routes.set(type, { schema, handler: handler as Handler });
  }

  /** Returns why a message was dropped, or null when it was handled. */
  async dispatch(socket: ClientSocket, data: unknown): Promise<string | null> {
    if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') {
      return 'message without a type';
    }
    const route = this.routes.get((data as { type: string }).type);
    if (!route) return 'unknown message type';
    const parsed = route.schema.safeParse(data);
    if (!parsed.success) return `invalid ${(data as { type: string }).type}: ${parsed.error.issues[0]?.message ?? ''}`;
    await route.handler(socket, parsed.data);
    return null;
  }
}
