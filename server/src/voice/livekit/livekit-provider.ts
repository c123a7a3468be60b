import { and, count, eq, inArray } from 'drizzle-orm';
import {
  ParticipantInfo_State,
  RoomServiceClient,
  TrackType,
  TwirpError,
  type ParticipantInfo,
} from 'livekit-server-sdk';
import type { ChannelTalkMode } from '../../../../protocol/floor.js';
import { userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import type { Config } from '../../config/config.js';
import { blockRelationsOf } from '../../blocking/block-store.js';
import { findChannel, mutedUserIds } from '../../memberships/membership-store.js';
import { blocks, channelMembers } from '../../db/schema.js';
import { mayOpenVoice, type VoiceAccessDeps, type VoiceFloorNow } from '../voice-access.js';
import type { VoiceProvider } from '../voice-provider.js';
import { sessionOfIdentity } from './livekit-identities.js';
import { livekitPermission, type LivekitRightsState } from './livekit-permissions.js';
import { channelIdOfLivekitRoom, livekitHttpUrl, livekitRoomName } from './livekit-rooms.js';

export { livekitHttpUrl } from './livekit-rooms.js';

/** RoomService calls give up after this long, so an admin's request never hangs on a dead server. */
const ROOM_SERVICE_TIMEOUT_SECONDS = 5;
/**
 * An empty room stays this long: longer than a voice token lives (10 minutes), so a member with a
 * fresh token always finds the room the token endpoint created (LiveKit creates none on a join).
 */
const EMPTY_ROOM_SECONDS = 11 * 60;

/** The room's metadata: the channel's talk mode, which every member may know anyway. */
const roomMetadata = (talkMode: ChannelTalkMode) => JSON.stringify({ talkMode });

function talkModeOfMetadata(metadata: string | undefined): ChannelTalkMode | undefined {
  try {
    const parsed = JSON.parse(metadata ?? '') as { talkMode?: unknown };
    return parsed.talkMode === 'open' || parsed.talkMode === 'walkie' ? parsed.talkMode : undefined;
  } catch {
    return undefined;
  }
}

/** A room or participant that does not exist (nobody connected, or gone meanwhile): nothing to do. */
const isNotFound = (error: unknown) =>
  error instanceof TwirpError && (error.status === 404 || error.code === 'not_found');

const ignoreNotFound = (error: unknown) => {
  if (!isNotFound(error)) throw error;
};

/** What the join webhook decided about a participant, for the log. */
export type LivekitAdmission =
  | { admitted: true; userId: string; canPublish: boolean; blockedUserIds: string[] }
  | { admitted: false; userId: string | undefined; reason: string };

/** The LiveKit provider, plus what only LiveKit needs: its door, its rooms and who is in them. */
export interface LivekitProvider extends VoiceProvider {
  readonly name: 'LiveKit';
  /** Creates the channel's room unless it exists: rooms are made by the app, never by a join. */
  ensureRoom(channelId: number): Promise<void>;
  /**
   * Calls `listener` each time a member is about to enter a walkie-talkie room (its room was just
   * ensured for their token), before they connect: the recorder joins there ahead of them.
   */
  onWalkieRoomEntering(listener: (channelId: number) => void): void;
  /**
   * LiveKit says a participant joined: removes them unless they may be there now (the identity was
   * minted by us for a live session, member, within the allowance), else sets their rights from the
   * current state and keeps blocked people's audio apart.
   */
  admitParticipant(channelId: number, participant: ParticipantInfo): Promise<LivekitAdmission>;
  /** A participant published a track: people in a block relation with them are not subscribed. */
  trackPublished(channelId: number, publisherIdentity: string, trackSid: string): Promise<void>;
  /** Sids of every participant now in this deployment's rooms (LiveKit's own list), for metering. */
  connectionIds(): Promise<string[]>;
  /**
   * Unsubscribes again, in every room, everyone in a block relation from the other's audio: a
   * client may subscribe again on its own, so this runs on a timer and bounds how long it hears.
   */
  keepBlocksApart(): Promise<void>;
}

/**
 * LiveKit for scale-out. Every right a participant has comes from `livekitPermission` over the
 * current state (admin mute, walkie-talkie floor), at join and at every change; removal and channel
 * deletion go through RoomService. Failures reject, so an admin's request fails instead of silently
 * leaving the audio on.
 */
export function createLivekitProvider(
  config: Config,
  access: VoiceAccessDeps,
  rooms?: RoomServiceClient,
): LivekitProvider {
  const { url, apiKey, apiSecret, roomPrefix } = config.voice.livekit;
  const roomName = (channelId: number) => livekitRoomName(roomPrefix, channelId);
  if (!url || !apiKey || !apiSecret) {
    return {
      name: 'LiveKit',
      configured: false,
      apiKey: '',
      apiSecret: '',
      url: () => '',
      roomName,
      setPublisherMuted: async () => undefined,
      setFloor: async () => undefined,
      disconnectUser: async () => undefined,
      closeRoom: async () => undefined,
      blockChanged: async () => undefined,
      ensureRoom: async () => undefined,
      onWalkieRoomEntering: () => undefined,
      admitParticipant: async (_channelId, participant) => ({
        admitted: false,
        userId: userIdFromIdentity(participant.identity),
        reason: 'LiveKit is not configured',
      }),
      trackPublished: async () => undefined,
      connectionIds: async () => [],
      keepBlocksApart: async () => undefined,
    };
  }
  const { db } = access;
  const walkieRoomEntering: ((channelId: number) => void)[] = [];
  const service =
    rooms ??
    new RoomServiceClient(livekitHttpUrl(url), apiKey, apiSecret, {
      requestTimeout: ROOM_SERVICE_TIMEOUT_SECONDS,
    });

  const participantsOf = (channelId: number) =>
    service.listParticipants(roomName(channelId)).catch((error: unknown) => {
      ignoreNotFound(error);
      return [] as ParticipantInfo[];
    });
  const identitiesOf = async (channelId: number, userId: string) =>
    (await participantsOf(channelId))
      .map((p) => p.identity)
      .filter((identity) => userIdFromIdentity(identity) === userId);
  const grantNow = async (channelId: number) => (await access.floors?.current(channelId)) ?? null;
  /**
   * The channel's floor as the room knows it: its talk mode is in the room's metadata (written by
   * `ensureRoom` and at every talk-mode change), so no database read is needed inside a
   * transaction. A room without it is treated as walkie-talkie (nobody publishes without the floor).
   */
  const roomFloorNow = async (channelId: number): Promise<VoiceFloorNow> => {
    const grant = await grantNow(channelId);
    // An SOS holds even an open channel's floor (decision 050).
    if (grant?.sos) return { walkie: true, holderId: grant.holderId, sos: true };
    const [room] = await service.listRooms([roomName(channelId)]);
    const walkie = talkModeOfMetadata(room?.metadata) !== 'open';
    return { walkie, holderId: walkie ? (grant?.holderId ?? null) : null };
  };
  const setRoomTalkMode = async (channelId: number, talkMode: ChannelTalkMode) => {
    await service
      .updateRoomMetadata(roomName(channelId), roomMetadata(talkMode))
      .catch(ignoreNotFound);
  };
  const applyRights = async (channelId: number, identity: string, state: LivekitRightsState) => {
    const userId = userIdFromIdentity(identity);
    if (userId === undefined) return; // the recorder: it never publishes, and never changes
    await service
      .updateParticipant(roomName(channelId), identity, {
        permission: livekitPermission(userId, state),
      })
      .catch(ignoreNotFound);
  };
  const audioTrackSids = (participant: ParticipantInfo) =>
    participant.tracks.filter((track) => track.type === TrackType.AUDIO).map((track) => track.sid);
  /** `listener` stops (or starts again) receiving `speaker`'s audio. */
  const setHearing = async (
    channelId: number,
    listener: ParticipantInfo,
    speaker: ParticipantInfo,
    hear: boolean,
  ) => {
    const sids = audioTrackSids(speaker);
    if (sids.length === 0) return;
    await service
      .updateSubscriptions(roomName(channelId), listener.identity, sids, hear)
      .catch(ignoreNotFound);
  };
  /** Keeps `participant` and everyone in `userIds` from hearing each other, both ways. */
  const keepApart = async (
    channelId: number,
    participant: ParticipantInfo,
    userIds: readonly string[],
    everyone?: ParticipantInfo[],
  ) => {
    if (userIds.length === 0) return;
    const apart = new Set(userIds);
    for (const other of everyone ?? (await participantsOf(channelId))) {
      const otherUserId = userIdFromIdentity(other.identity);
      if (otherUserId === undefined || !apart.has(otherUserId)) continue;
      await setHearing(channelId, participant, other, false);
      await setHearing(channelId, other, participant, false);
    }
  };
  const ourRooms = async () =>
    (await service.listRooms()).flatMap((room) => {
      const channelId = channelIdOfLivekitRoom(roomPrefix, room.name);
      return channelId === undefined ? [] : [{ channelId, name: room.name }];
    });
  const remove = async (channelId: number, identity: string) => {
    await service.removeParticipant(roomName(channelId), identity).catch(ignoreNotFound);
  };

  return {
    name: 'LiveKit',
    configured: true,
    apiKey,
    apiSecret,
    url: () => url,
    roomName,

    async ensureRoom(channelId) {
      const talkMode = (await findChannel(db, channelId))?.talkMode ?? 'walkie';
      const room = await service.createRoom({
        name: roomName(channelId),
        emptyTimeout: EMPTY_ROOM_SECONDS,
        metadata: roomMetadata(talkMode),
      });
      // An existing room keeps its metadata on create: make sure it says the mode of now.
      if (talkModeOfMetadata(room.metadata) !== talkMode)
        await setRoomTalkMode(channelId, talkMode);
      if (talkMode === 'walkie') for (const listener of walkieRoomEntering) listener(channelId);
    },

    onWalkieRoomEntering(listener) {
      walkieRoomEntering.push(listener);
    },

    /**
     * Called inside the admin's transaction (`muted` is the new state, not yet committed), so it
     * reads nothing from the database: the talk mode is the room's own (set by the app when it
     * created the room and at every change), the holder is the floor store's.
     */
    async setPublisherMuted(channelId, userId, muted) {
      const identities = await identitiesOf(channelId, userId);
      if (identities.length === 0) return;
      const floor = await roomFloorNow(channelId);
      for (const identity of identities) await applyRights(channelId, identity, { muted, floor });
    },

    /**
     * Armed, the user's participants may publish (their client publishes a muted microphone);
     * unarmed, their rights are those of now (the floor, an SOS they hold, the admin mute).
     */
    async setSosArmed(channelId, userId, armed) {
      const identities = await identitiesOf(channelId, userId);
      if (identities.length === 0) return false;
      const state: LivekitRightsState = armed
        ? // The arm lets them publish whatever the floor and the mute say: neither is read.
          { muted: false, floor: { walkie: true, holderId: null }, sosArmed: true }
        : await Promise.all([roomFloorNow(channelId), mutedUserIds(db, channelId)]).then(
            ([floor, mutedIds]) => ({ muted: mutedIds.includes(userId), floor }),
          );
      await Promise.all(identities.map((identity) => applyRights(channelId, identity, state)));
      return true;
    },

    /** Everyone's rights follow the new floor (and, when the talk mode changed, the new mode). */
    async setFloor(channelId, floor) {
      if (floor.modeChanged) await setRoomTalkMode(channelId, floor.walkie ? 'walkie' : 'open');
      const [mutedIds, participants] = await Promise.all([
        floor.modeChanged?.mutedUserIds ?? mutedUserIds(db, channelId),
        participantsOf(channelId),
      ]);
      const muted = new Set(mutedIds);
      const now = {
        walkie: floor.walkie,
        holderId: floor.holderId,
        ...(floor.sos ? { sos: true } : {}),
      };
      const changes = participants.flatMap((participant) => {
        const userId = userIdFromIdentity(participant.identity);
        if (userId === undefined) return [];
        // An SOS may make an open room walkie: everyone's right changes, not only the holders'.
        const changed =
          floor.modeChanged !== undefined ||
          floor.sos === true ||
          userId === floor.holderId ||
          userId === floor.previousHolderId;
        return changed ? [{ identity: participant.identity, userId }] : [];
      });
      // All at once, the new holder's first: their first words wait for it, and revoking a right
      // that is publishing takes LiveKit longest (it unpublishes the track before it answers).
      const holderFirst = [
        ...changes.filter((change) => change.userId === floor.holderId),
        ...changes.filter((change) => change.userId !== floor.holderId),
      ];
      await Promise.all(
        holderFirst.map((change) =>
          applyRights(channelId, change.identity, { muted: muted.has(change.userId), floor: now }),
        ),
      );
    },

    /** LiveKit's own list: a join its webhook has not reported yet counts (the floor asks). */
    async hasConnection(channelId, userId) {
      return (await participantsOf(channelId)).some(
        (participant) =>
          participant.state !== ParticipantInfo_State.DISCONNECTED &&
          userIdFromIdentity(participant.identity) === userId,
      );
    },

    async disconnectUser(channelId, userId) {
      for (const participant of await participantsOf(channelId)) {
        if (userIdFromIdentity(participant.identity) === userId)
          await remove(channelId, participant.identity);
      }
    },

    async closeRoom(channelId) {
      await service.deleteRoom(roomName(channelId)).catch(ignoreNotFound);
    },

    /** In every room both are in, neither hears the other (blocked), or both do again (unblocked). */
    async blockChanged(blockerId, blockedId, blocked) {
      const shared = await db
        .select({ channelId: channelMembers.channelId })
        .from(channelMembers)
        .where(inArray(channelMembers.userId, [blockerId, blockedId]))
        .groupBy(channelMembers.channelId)
        .having(eq(count(channelMembers.userId), 2));
      for (const { channelId } of shared) {
        const everyone = await participantsOf(channelId);
        const of = (userId: string) =>
          everyone.filter((p) => userIdFromIdentity(p.identity) === userId);
        for (const a of of(blockerId)) {
          for (const b of of(blockedId)) {
            await setHearing(channelId, a, b, !blocked);
            await setHearing(channelId, b, a, !blocked);
          }
        }
      }
    },

    async admitParticipant(channelId, participant) {
      const { identity } = participant;
      const userId = userIdFromIdentity(identity);
      const owner = await sessionOfIdentity(db, identity);
      const refuse = async (reason: string): Promise<LivekitAdmission> => {
        await remove(channelId, identity);
        return { admitted: false, userId, reason };
      };
      // Only identities the token endpoint minted for this user and this channel, while their
      // sign-in session lasts (the row goes with the session, the user and the channel).
      if (!owner || owner.userId !== userId || owner.channelId !== channelId)
        return refuse('identity not minted for this channel, or its session ended');
      const decided = await mayOpenVoice(access, {
        userId: owner.userId,
        channelId,
        sessionId: owner.sessionId,
      });
      if (!decided.admitted) return refuse(decided.reason);
      const state = {
        muted: decided.muted,
        floor: decided.floor,
        // A countdown armed before this webhook came stays armed (decision 054).
        sosArmed: (await access.sosArmed?.(channelId, owner.userId)) ?? false,
      };
      await applyRights(channelId, identity, state);
      // Armed between the read and the write: the arm's own update may have come before ours.
      if (!state.sosArmed && (await access.sosArmed?.(channelId, owner.userId)))
        await applyRights(channelId, identity, { ...state, sosArmed: true });
      await keepApart(channelId, participant, decided.blockedUserIds);
      return {
        admitted: true,
        userId: owner.userId,
        canPublish: livekitPermission(owner.userId, state).canPublish ?? false,
        blockedUserIds: decided.blockedUserIds,
      };
    },

    async trackPublished(channelId, publisherIdentity, trackSid) {
      const userId = userIdFromIdentity(publisherIdentity);
      if (userId === undefined) return;
      const apart = new Set(await blockRelationsOf(db, userId));
      if (apart.size === 0) return;
      for (const other of await participantsOf(channelId)) {
        const otherUserId = userIdFromIdentity(other.identity);
        if (otherUserId === undefined || !apart.has(otherUserId)) continue;
        await service
          .updateSubscriptions(roomName(channelId), other.identity, [trackSid], false)
          .catch(ignoreNotFound);
      }
    },

    async connectionIds() {
      const sids: string[] = [];
      for (const room of await ourRooms())
        sids.push(...(await participantsOf(room.channelId)).map((p) => p.sid));
      return sids;
    },

    async keepBlocksApart() {
      for (const room of await ourRooms()) {
        const everyone = await participantsOf(room.channelId);
        const userIds = [...new Set(everyone.flatMap((p) => userIdFromIdentity(p.identity) ?? []))];
        if (userIds.length < 2) continue;
        const pairs = await db
          .select({ blockerId: blocks.blockerId, blockedId: blocks.blockedId })
          .from(blocks)
          .where(and(inArray(blocks.blockerId, userIds), inArray(blocks.blockedId, userIds)));
        for (const { blockerId, blockedId } of pairs) {
          for (const a of everyone.filter((p) => userIdFromIdentity(p.identity) === blockerId))
            await keepApart(room.channelId, a, [blockedId], everyone);
        }
      }
    },
  };
}
