import type { MediaStreamTrack, RTCRtpTransceiver } from 'werift';
import { nativeDatagrams, type NativeDatagrams } from './native/native-datagrams.js';
import { NativeRtpForwarder } from './native-rtp-forwarder.js';
import { RtpForwarder, type TalkerForwarder } from './rtp-forwarder.js';
import type { SenderReports } from './sender-reports.js';

/**
 * The forwarder of one talker towards one listener: the addon's fan-out when it is built
 * (`NativeRtpForwarder`), else the same work in JavaScript (`RtpForwarder`).
 */
export function createForwarder(
  transceiver: RTCRtpTransceiver,
  track: MediaStreamTrack,
  reports: SenderReports,
  native: NativeDatagrams | undefined = nativeDatagrams(),
): TalkerForwarder {
  return native
    ? new NativeRtpForwarder(transceiver, track, reports, native)
    : new RtpForwarder(transceiver, track, reports);
}
