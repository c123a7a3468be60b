/**
 * A reason the server (or one of its tools) will not start that the operator fixes outside Chirp:
 * a data folder others can change, a Redis that does not answer. Printed as one line, no stack.
 */
export class StartRefusal extends Error {}
