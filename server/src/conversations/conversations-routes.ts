import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  CONVERSATION_REFUSALS,
  startConversationBodySchema,
  type Conversation,
} from '../../../protocol/conversations.js';
import { requireUser } from '../auth/require-user.js';
import { notFound } from '../http/errors.js';
import { conversationsOf } from './conversation-store.js';
import { conversationView } from './conversation-view.js';
import { startConversation } from './start-conversation.js';

/**
 * Direct walkie-talkie conversations (decision 039): my conversations with "N missed" each, and
 * get-or-create one with a person. Everything else about one goes through the channel doors, which
 * treat a direct channel as its two members' only.
 */
export function registerConversationRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.conversations, async (request) => {
    const user = await requireUser(request);
    const { db } = ctx.database;
    const rows = await conversationsOf(db, user.id);
    const views: Conversation[] = [];
    for (const row of rows) {
      const view = await conversationView({ db, transmissions: ctx.transmissions }, user, row);
      if (view) views.push(view);
    }
    return views;
  });

  app.post(API_PATHS.conversations, async (request) => {
    const { userId } = startConversationBodySchema.parse(request.body);
    const user = await requireUser(request);
    const { db } = ctx.database;
    const channel = await startConversation(db, user.id, userId);
    await ctx.presence.channelsGained([user.id, userId]);
    const view = await conversationView({ db, transmissions: ctx.transmissions }, user, {
      channel,
      otherId: userId,
    });
    if (!view) throw notFound(CONVERSATION_REFUSALS.unknown);
    return view satisfies Conversation;
  });
}
