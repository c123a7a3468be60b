import { createTransport } from './create-transport';
import { RoomController } from './room-connection/room-controller';

/**
 * The tab's one voice room. One module instance, because exactly one room may be connected per tab
 * and several components (badge, member cards, controls) read it.
 */
export const voiceRoom = new RoomController({
  fetch: (input, init) => fetch(input, init),
  createTransport,
});
