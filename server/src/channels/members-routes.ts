import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
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

  app.get(API_PATHS.channelMembers, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelReader(request, id);
    return loadMembers(ctx.database.db, ctx.presence, id);
  });

  app.post(API_PATHS.channelMembers, async (request, reply) => {
    const { id } = channelParamsSchema.parse(request.params);
    const body = addMemberBodySchema.parse(request.body);
    const access = await requireChannel(request, id);
    return reply.status(201).send(await addMember(ctx, access, body));
  });

  app.delete(API_PATHS.channelMember, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannel(request, id);
    await removeMember(ctx, access, memberId);
    return { message: 'Member removed' } satisfies MessageResponse;
  });

  app.post(API_PATHS.channelMemberMute, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(ctx, access, memberId, true);
  });

  app.delete(API_PATHS.channelMemberMute, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(ctx, access, memberId, false);
  });

  app.post(API_PATHS.channelMemberPoke, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelMember(request, id);
    await poke(ctx, pokes, access, memberId);
    return { message: 'Poke sent' } satisfies PokeResponse;
  });

  app.get(API_PATHS.mutedUsers, async (request) => {
    const { channelId } = mutedUsersParamsSchema.parse(request.params);
    await requireChannelReader(request, channelId);
    const mutedUsers = await mutedUserIds(ctx.database.db, channelId);
    return { mutedUsers } satisfies MutedUsersResponse;
  });
}
