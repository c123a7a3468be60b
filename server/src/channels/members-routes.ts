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
import {
  addMember,
  removeMember,
  setMemberMuted,
  type SetMemberMutedDeps,
} from './member-actions.js';
import { loadMembers } from '../memberships/member-view.js';
import { mutedUserIds } from '../memberships/membership-store.js';
import { channelPushes } from '../push/channel-pushes.js';
import { poke } from './poke.js';
import { PokeLimiter } from './poke-limiter.js';

export function registerMemberRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const pokes = new PokeLimiter();
  const pushes = channelPushes(ctx.notifier, ctx.database.db);
  const muteDeps = (): SetMemberMutedDeps => ({
    db: ctx.database.db,
    voice: ctx.voice.provider,
    floor: ctx.floor,
    presence: ctx.presence,
    channelEvents: ctx.channelEvents,
  });

  app.get(API_PATHS.channelMembers, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    await requireChannelReader(request, id);
    return loadMembers(ctx.database.db, ctx.presence, id);
  });

  app.post(API_PATHS.channelMembers, async (request, reply) => {
    const { id } = channelParamsSchema.parse(request.params);
    const body = addMemberBodySchema.parse(request.body);
    const access = await requireChannel(request, id);
    const { database, counters, presence, channelEvents } = ctx;
    const deps = { db: database.db, counters, presence, channelEvents, pushes };
    return reply.status(201).send(await addMember(deps, access, body));
  });

  app.delete(API_PATHS.channelMember, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannel(request, id);
    const { database, voice, floor, channelEvents } = ctx;
    await removeMember(
      { db: database.db, voice: voice.provider, floor, channelEvents },
      access,
      memberId,
    );
    return { message: 'Member removed' } satisfies MessageResponse;
  });

  app.post(API_PATHS.channelMemberMute, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(muteDeps(), access, memberId, true);
  });

  app.delete(API_PATHS.channelMemberMute, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelAdmin(request, id);
    return setMemberMuted(muteDeps(), access, memberId, false);
  });

  app.post(API_PATHS.channelMemberPoke, async (request) => {
    const { id, memberId } = memberParamsSchema.parse(request.params);
    const access = await requireChannelMember(request, id);
    await poke(
      { db: ctx.database.db, limiter: pokes, channelEvents: ctx.channelEvents, pushes },
      access,
      memberId,
    );
    return { message: 'Poke sent' } satisfies PokeResponse;
  });

  app.get(API_PATHS.mutedUsers, async (request) => {
    const { channelId } = mutedUsersParamsSchema.parse(request.params);
    await requireChannelReader(request, channelId);
    const mutedUsers = await mutedUserIds(ctx.database.db, channelId);
    return { mutedUsers } satisfies MutedUsersResponse;
  });
}
