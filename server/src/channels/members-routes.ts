import type { FastifyInstance } from 'fastify';
import {
  addMemberBodySchema,
  channelParamsSchema,
  memberParamsSchema,
  mutedUsersParamsSchema,
  type MutedUsersResponse,
  type PokeResponse,
} from '../../../protocol/channels.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import {
  requireChannel,
  requireChannelAdmin,
  requireChannelMember,
  requireChannelReader,
} from '../access/channel-guards.js';
import { addMember, removeMember, setMemberMuted } from './member-actions.js';
import { loadMembers } from './member-view.js';
import { mutedUserIds } from './membership-store.js';
import { poke } from './poke.js';
import { PokeLimiter } from './poke-limiter.js';

export function registerMemberRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const pokes = new PokeLimiter();

  app.get('/api/channels/:id/members', async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelReader(request, id);
    return loadMembers(ctx.database.db, ctx.presence, id);
  });

  app.post('/api/channels/:id/members', async (request, reply) => {
    const { id } = channelParamsSchema.parse(request.params);
    const body = addMemberBodySchema.parse(request.body);
    const access = await requireChannel(request, id);
    return reply.status(201).send(await addMember(ctx, access, body));
  });

  app.delete('/api/channels/:id/members/:memberId', async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannel(request, id);
    await removeMember(ctx, access, memberId);
    return { message: 'Member removed' } satisfies MessageResponse;
  });

  app.post('/api/channels/:id/members/:memberId/mute', async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(ctx, access, memberId, true);
  });

  app.delete('/api/channels/:id/members/:memberId/mute', async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(ctx, access, memberId, false);
  });

  app.post('/api/channels/:id/members/:memberId/poke', async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelMember(request, id);
    await poke(ctx, pokes, access, memberId);
    return { message: 'Poke sent' } satisfies PokeResponse;
  });

  app.get('/api/muted-users/:channelId', async (request) => {
    const { channelId } = mutedUsersParamsSchema.parse(request.params);
    await requireChannelReader(request, channelId);
    const mutedUsers = await mutedUserIds(ctx.database.db, channelId);
    return { mutedUsers } satisfies MutedUsersResponse;
  });
}
