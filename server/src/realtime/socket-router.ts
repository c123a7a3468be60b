import type { z } from 'zod';

/** A socket message schema: an object whose `type` is one literal, as every protocol/ message is. */
export type MessageSchema = z.ZodType<{ type: string }> & { shape: { type: z.ZodLiteral<string> } };

/** A protocol/ union of message schemas, discriminated on `type`. */
export interface MessageUnion {
  readonly options: readonly MessageSchema[];
}

type Handler<S> = (socket: S, message: unknown) => Promise<void>;

const typeOf = (schema: MessageSchema): string => schema.shape.type.value;

/**
 * Routes a socket's messages to their handlers by schema: `on(joinChannelSchema, handler)` takes the
 * message type from the schema, and the handler receives the parsed message. The router is built
 * for one protocol/ union; a schema outside it cannot be registered, and `assertComplete()` fails
 * when a message of the union has no handler.
 */
export class SocketRouter<S> {
  private readonly routes = new Map<string, { schema: MessageSchema; handler: Handler<S> }>();
  private readonly known: Set<string>;

  constructor(private readonly union: MessageUnion) {
    this.known = new Set(union.options.map(typeOf));
  }

  on<M extends MessageSchema>(
    schema: M,
    handler: (socket: S, message: z.output<M>) => Promise<void>,
  ): this {
    const type = typeOf(schema);
    if (!this.known.has(type))
      throw new Error(`"${type}" is not a message of this socket's protocol union`);
    if (this.routes.has(type)) throw new Error(`"${type}" already has a handler`);
    this.routes.set(type, { schema, handler: handler as Handler<S> });
    return this;
  }

  /** Throws at start-up when a message the protocol says clients may send has no handler. */
  assertComplete(): void {
    const missing = [...this.known].filter((type) => !this.routes.has(type));
    if (missing.length) throw new Error(`socket messages without a handler: ${missing.join(', ')}`);
  }

  /** Returns why a message was dropped, or null when it was handled. */
  async dispatch(socket: S, data: unknown): Promise<string | null> {
    if (typeof data !== 'object' || data === null) return 'message is not an object';
    const type = (data as { type?: unknown }).type;
    if (typeof type !== 'string') return 'message without a type';
    const route = this.routes.get(type);
    if (!route) return 'unknown message type';
    const parsed = route.schema.safeParse(data);
    if (!parsed.success) return `invalid ${type}: ${parsed.error.issues[0]?.message ?? ''}`;
    await route.handler(socket, parsed.data);
    return null;
  }
}
