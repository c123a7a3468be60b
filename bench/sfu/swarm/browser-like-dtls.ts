import { DtlsClient } from 'werift';

const HELLO_VERIFY_REQUEST = 3;
let installed = false;

/**
 * werift's DTLS client fails the handshake when the server's HelloVerifyRequest arrives twice
 * (the server retransmits it when our answer is late, which a loaded machine makes common):
 * Flight3 throws on the duplicate. Browsers ignore such a retransmission. The swarm stands in for
 * browsers, so its werift clients ignore it too — for every server under test alike.
 */
export function ignoreRetransmittedHelloVerify(): void {
  if (installed) return;
  installed = true;
  // Called below with the instance as `this`, as werift itself does.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const connect = DtlsClient.prototype.connect;
  DtlsClient.prototype.connect = function (this: DtlsClient) {
    const handle = this.onHandleHandshakes;
    this.onHandleHandshakes = (assembled) =>
      handle(
        this.dtls.flight >= 3
          ? assembled.filter((handshake) => handshake.msg_type !== HELLO_VERIFY_REQUEST)
          : assembled,
      );
    return connect.call(this);
  };
}
