/** Bumped whenever a socket message or REST body changes shape incompatibly. Checked on connect. */
export const PROTOCOL_VERSION = 1;
