import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { channelParamsSchema } from '../../../protocol/channels.js';
import {
  channelSosBodySchema,
  raiseSosBodySchema,
  sosLocationBodySchema,
  sosArmBodySchema,
  sosParamsSchema,
  type ChannelSosSettings,
  type SosArmResponse,
  type SosAlert,
} from '../../../protocol/sos.js';
import { requireChannelAdmin } from '../access/channel-guards.js';
import { requireUser } from '../auth/require-user.js';
import { notFound } from '../http/errors.js';
import { memberIdsOf } from '../memberships/membership-store.js';
import { setChannelSos } from './sos-store.js';

/** Family SOS (decision 050): the channel setting, raising, the open alerts, and acting on one. */
export function registerSosRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  /** A channel admin (or a superadmin) of a group channel makes it an SOS channel, or not. */
  app.put(API_PATHS.channelSos, async (request) => {
    const { id } = channelParamsSchema.parse(request.params);
    const body = channelSosBodySchema.parse(request.body);
    await requireChannelAdmin(request, id);
    const { db } = ctx.database;
    // Turning it off leaves the alerts as they are: they are resolved, not forgotten.
    const settings = await setChannelSos(db, id, body);
    if (!settings) throw notFound('Channel not found');
    ctx.channelEvents.publish({ type: 'sos_changed', channelId: id, memberIds: await memberIdsOf(db, id) });
    return settings satisfies ChannelSosSettings;
  });

  app.post(API_PATHS.sos, async (request, reply) => {
    const { channelId } = raiseSosBodySchema.parse(request.body);
    const user = await requireUser(request);
    const { alert, created } = await ctx.sos.raise(user, channelId);
    return reply.status(created ? 201 : 200).send(alert satisfies SosAlert);
  });

  app.post(API_PATHS.sosArm, async (request) => {
    const { channelId } = sosArmBodySchema.parse(request.body);
    const user = await requireUser(request);
    return (await ctx.sos.arm(user, channelId)) satisfies SosArmResponse;
  });

  app.post(API_PATHS.sosDisarm, async (request, reply) => {
    const { channelId } = sosArmBodySchema.parse(request.body);
    const user = await requireUser(request);
    await ctx.sos.disarm(user, channelId);
    return reply.status(204).send();
  });

  app.get(API_PATHS.sos, async (request) => {
    const user = await requireUser(request);
    return (await ctx.sos.openAlerts(user)) satisfies SosAlert[];
  });

  app.put(API_PATHS.sosLocation, async (request) => {
    const { id } = sosParamsSchema.parse(request.params);
    const location = sosLocationBodySchema.parse(request.body);
    const user = await requireUser(request);
    return (await ctx.sos.locate(user, id, location)) satisfies SosAlert;
  });

  app.post(API_PATHS.sosAck, async (request) => {
    const { id } = sosParamsSchema.parse(request.params);
    const user = await requireUser(request);
    return (await ctx.sos.ack(user, id)) satisfies SosAlert;
  });

  app.post(API_PATHS.sosResolve, async (request) => {
    const { id } = sosParamsSchema.parse(request.params);
    const user = await requireUser(request);
    return (await ctx.sos.resolve(user, id)) satisfies SosAlert;
  });
}
