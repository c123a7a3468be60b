/** Bus topic of one call's signalling room: relayed offers, answers and candidates, and its closing. */
export const callRoomTopic = (roomName: string) => `call:${roomName}`;

/** Published on the room topic when the call is over, so every instance closes the room's sockets. */
export const ROOM_CLOSED = { kind: 'room_closed' } as const;
