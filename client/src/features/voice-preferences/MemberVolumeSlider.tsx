import { Volume1, Volume2, VolumeX } from 'lucide-react';
import { MAX_MEMBER_VOLUME, MIN_MEMBER_VOLUME } from '../../../../protocol/voice-preferences';
import { Slider } from '../../ui/Slider';
import { useMemberVolume } from './useVoicePreferences';

/** Keyboard steps: 5 % per arrow key, 50 % per Page Up/Down (Radix: ten steps). */
const STEP = 5;

function VolumeIcon({ volume }: { volume: number }) {
  const Icon = volume === 0 ? VolumeX : volume < 100 ? Volume1 : Volume2;
  return <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />;
}

/**
 * How loud one member plays for the signed-in listener, 0-200 % (issue 17), on their member card.
 * The audio follows the thumb as it moves; the choice is saved when the thumb is let go.
 */
export function MemberVolumeSlider({ memberId, name }: { memberId: string; name: string }) {
  const { volume, preview, save } = useMemberVolume(memberId);
  return (
    <div className="flex items-center gap-2" data-testid="member-volume">
      <VolumeIcon volume={volume} />
      <Slider
        aria-label={`Volume for ${name}`}
        valueText={`${volume}%`}
        min={MIN_MEMBER_VOLUME}
        max={MAX_MEMBER_VOLUME}
        step={STEP}
        value={[volume]}
        onValueChange={([value]) => {
          if (value !== undefined) preview(value);
        }}
        onValueCommit={([value]) => {
          if (value !== undefined) save(value);
        }}
      />
      <span
        aria-hidden="true"
        className="w-11 shrink-0 text-right text-xs tabular-nums text-muted-foreground"
      >
        {volume}%
      </span>
    </div>
  );
}
