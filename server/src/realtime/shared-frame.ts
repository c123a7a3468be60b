/**
 * One bus message on its way to many sockets (a channel's viewers, a user's devices): its JSON is
 * written once, on first use, and the same bytes go to every socket, instead of serialising the
 * message again for each one. So is its WebSocket frame (`wire`), which a socket writes as it is.
 */
export class SharedFrame {
  private bytes: Buffer | undefined;
  private framed: Buffer | undefined;

  constructor(readonly message: object) {}

  get data(): Buffer {
    this.bytes ??= Buffer.from(JSON.stringify(this.message), 'utf8');
    return this.bytes;
  }

  /** The JSON as one unmasked text frame, as a server sends it (RFC 6455 §5.2). */
  get wire(): Buffer {
    this.framed ??= textFrame(this.data);
    return this.framed;
  }
}

function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, text
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, header);
  return frame;
}
