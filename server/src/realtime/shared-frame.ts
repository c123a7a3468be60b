/**
 * One bus message on its way to many sockets (a channel's viewers, a user's devices): its JSON is
 * written once, on first use, and the same bytes go to every socket, instead of serialising the
 * message again for each one.
 */
export class SharedFrame {
  private bytes: Buffer | undefined;

  constructor(readonly message: object) {}

  get data(): Buffer {
    this.bytes ??= Buffer.from(JSON.stringify(this.message), 'utf8');
    return this.bytes;
  }
}
