import type { SosArmResponse } from '../../../../protocol/sos';

export type SosArmingDeps = {
  /** The tab's voice room. */
  room: {
    getView(): { connected: boolean };
    subscribe(listener: () => void): () => void;
    armMicrophone(armed: boolean): void;
  };
  /** The channel whose voice room the tab is in (the presence's). */
  channelId(): number | null;
  api: {
    arm(channelId: number): Promise<SosArmResponse>;
    disarm(channelId: number): Promise<void>;
  };
};

/** One countdown's arm: whether the voice server armed it by now, and its two ends. */
export interface SosArm {
  /** The voice server lets the microphone be published muted: the SOS opens it by unmuting. */
  readonly armed: boolean;
  /** The countdown ran out (the SOS goes): stop waiting; what was armed lapses on the server. */
  settle(): void;
  /** Cancel: taken back at the voice server now. */
  cancel(): void;
}

/**
 * Arms an SOS countdown (decision 054): once the tab's voice room is connected in the SOS channel
 * (the countdown brings the user there), asks the server to let the microphone be published
 * muted, and has the room publish it so. Failures only mean the SOS goes the slower way.
 */
export function armSos(deps: SosArmingDeps, channelId: number): SosArm {
  let phase: 'waiting' | 'asking' | 'armed' | 'unarmed' | 'settled' | 'cancelled' = 'waiting';
  let asked: Promise<unknown> | undefined;

  const tryArm = () => {
    if (phase !== 'waiting' || !deps.room.getView().connected) return;
    if (deps.channelId() !== channelId) return;
    phase = 'asking';
    off();
    // The capture starts while the server is asked.
    deps.room.armMicrophone(true);
    asked = deps.api.arm(channelId).then(
      ({ armed }) => {
        if (phase === 'asking') phase = armed ? 'armed' : 'unarmed';
        if (!armed) deps.room.armMicrophone(false);
      },
      (error: unknown) => {
        if (phase === 'asking') phase = 'unarmed';
        deps.room.armMicrophone(false);
        console.warn('sos: the countdown was not armed', error);
      },
    );
  };
  const off = deps.room.subscribe(tryArm);
  tryArm();

  return {
    get armed() {
      return phase === 'armed';
    },
    settle() {
      off();
      if (phase === 'waiting') phase = 'settled';
    },
    cancel() {
      off();
      const wasAsked = asked;
      phase = 'cancelled';
      deps.room.armMicrophone(false);
      if (!wasAsked) return;
      // After the arm's answer, so the disarm cannot overtake it.
      void wasAsked
        .then(() => deps.api.disarm(channelId))
        .catch((error: unknown) => console.warn('sos: the countdown was not disarmed', error));
    },
  };
}
