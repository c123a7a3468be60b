import {
  ConnectionState,
  DisconnectReason,
  Room,
  createLocalAudioTrack,
  type LocalAudioTrack,
  RoomEvent,
  Track,
  type Participant,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
} from 'livekit-client';
import type { CreateLiveKitRoom, LiveKitRoomHandlers, LiveKitRoomPort } from './livekit-port';
import type { VoiceDisconnectReason, VoiceRoomState } from './voice-transport';

const STATES: Record<ConnectionState, VoiceRoomState> = {
  [ConnectionState.Disconnected]: 'disconnected',
  [ConnectionState.Connecting]: 'connecting',
  [ConnectionState.Connected]: 'connected',
  [ConnectionState.Reconnecting]: 'reconnecting',
  [ConnectionState.SignalReconnecting]: 'signalReconnecting',
};

/** LiveKit's reasons in the transport's words, so the voice room reacts alike on both providers. */
export function disconnectReason(reason: DisconnectReason | undefined): VoiceDisconnectReason {
  switch (reason) {
    case DisconnectReason.CLIENT_INITIATED:
      return 'client';
    case DisconnectReason.DUPLICATE_IDENTITY:
      return 'replaced';
    case DisconnectReason.PARTICIPANT_REMOVED:
      return 'kicked';
    case DisconnectReason.ROOM_DELETED:
      return 'room_closed';
    case DisconnectReason.JOIN_FAILURE:
      return 'unauthorized';
    default:
      return 'connection_lost';
  }
}

const like = (participant: Participant) => ({
  identity: participant.identity,
  name: participant.name,
});

/** The real `livekit-client` Room behind the transport's narrow port. Loaded only for LiveKit. */
export const createLiveKitRoom: CreateLiveKitRoom = (options) => {
  const room = new Room(options);
  /** A capture made ahead of the publish right (`prepareMicrophone`), until published or released. */
  let prepared: Promise<LocalAudioTrack | undefined> | undefined;
  /** `publishMutedMicrophone` under way. */
  let mutedPublish: Promise<void> | undefined;
  const hasMicrophone = () =>
    room.localParticipant.getTrackPublication(Track.Source.Microphone) !== undefined;
  const release = () => {
    const capture = prepared;
    prepared = undefined;
    void capture?.then((track) => track?.stop());
  };
  const port: LiveKitRoomPort = {
    get localParticipant() {
      return room.localParticipant ? like(room.localParticipant) : undefined;
    },
    get remoteParticipants() {
      return [...room.remoteParticipants.values()].map(like);
    },
    connect: (url, token) => room.connect(url, token),
    disconnect: () => {
      release();
      return room.disconnect();
    },
    setMicrophoneEnabled: async (on) => {
      // A muted publication on its way (an SOS countdown): this turns that one on or off.
      await mutedPublish?.catch(() => undefined);
      if (!on || hasMicrophone()) release();
      const capture = prepared;
      prepared = undefined;
      const track = await capture;
      if (track) {
        try {
          await room.localParticipant.publishTrack(track, { source: Track.Source.Microphone });
        } catch (error) {
          track.stop();
          throw error;
        }
        return;
      }
      await room.localParticipant.setMicrophoneEnabled(on);
    },
    prepareMicrophone: () => {
      if (prepared || hasMicrophone()) return;
      prepared = createLocalAudioTrack(options.audioCaptureDefaults).catch(() => undefined);
    },
    releasePreparedMicrophone: release,
    publishMutedMicrophone: () => {
      if (hasMicrophone()) return Promise.resolve();
      mutedPublish ??= (async () => {
        const capture = prepared ?? createLocalAudioTrack(options.audioCaptureDefaults);
        prepared = undefined;
        const track = await capture;
        if (!track) throw new Error('no microphone');
        try {
          // Muted before it is published: LiveKit is told so in the publication itself.
          await track.mute();
          await room.localParticipant.publishTrack(track, { source: Track.Source.Microphone });
        } catch (error) {
          track.stop();
          throw error;
        }
      })().finally(() => {
        mutedPublish = undefined;
      });
      return mutedPublish;
    },
    canPublish: () => room.localParticipant.permissions?.canPublish ?? true,
    subscribe(handlers: LiveKitRoomHandlers) {
      const onState = (state: ConnectionState) => handlers.connectionStateChanged(STATES[state]);
      const onJoined = (p: RemoteParticipant) => handlers.participantConnected(like(p));
      const onLeft = (p: RemoteParticipant) => handlers.participantDisconnected(like(p));
      const onSpeakers = (speakers: Participant[]) =>
        handlers.activeSpeakersChanged(speakers.map(like));
      const onSubscribed = (
        track: RemoteTrack,
        publication: RemoteTrackPublication,
        p: RemoteParticipant,
      ) => {
        if (track.kind === Track.Kind.Audio)
          handlers.audioTrackSubscribed(track.mediaStreamTrack, publication.trackSid, like(p));
      };
      const onUnsubscribed = (
        track: RemoteTrack,
        publication: RemoteTrackPublication,
        p: RemoteParticipant,
      ) => {
        if (track.kind === Track.Kind.Audio)
          handlers.audioTrackUnsubscribed(publication.trackSid, like(p));
      };
      const onDisconnected = (reason?: DisconnectReason) =>
        handlers.disconnected(disconnectReason(reason));
      const onPermissions = (previous: { canPublish?: boolean } | undefined, p: Participant) => {
        if (p !== room.localParticipant) return;
        const canPublish = p.permissions?.canPublish ?? true;
        if (canPublish !== (previous?.canPublish ?? true))
          handlers.publishPermissionChanged(canPublish);
      };
      room
        .on(RoomEvent.ConnectionStateChanged, onState)
        .on(RoomEvent.ParticipantConnected, onJoined)
        .on(RoomEvent.ParticipantDisconnected, onLeft)
        .on(RoomEvent.ActiveSpeakersChanged, onSpeakers)
        .on(RoomEvent.TrackSubscribed, onSubscribed)
        .on(RoomEvent.TrackUnsubscribed, onUnsubscribed)
        .on(RoomEvent.Disconnected, onDisconnected)
        .on(RoomEvent.ParticipantPermissionsChanged, onPermissions);
      return () => {
        room
          .off(RoomEvent.ConnectionStateChanged, onState)
          .off(RoomEvent.ParticipantConnected, onJoined)
          .off(RoomEvent.ParticipantDisconnected, onLeft)
          .off(RoomEvent.ActiveSpeakersChanged, onSpeakers)
          .off(RoomEvent.TrackSubscribed, onSubscribed)
          .off(RoomEvent.TrackUnsubscribed, onUnsubscribed)
          .off(RoomEvent.Disconnected, onDisconnected)
          .off(RoomEvent.ParticipantPermissionsChanged, onPermissions);
      };
    },
  };
  return port;
};
