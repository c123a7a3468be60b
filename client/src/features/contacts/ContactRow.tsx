import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { History, Phone, PhoneMissed, RadioTower, UserMinus, UserPlus } from 'lucide-react';
import { displayName, type User } from '../../../../protocol/user';
import { Badge } from '../../ui/Badge';
import { BusyIcon } from '../../ui/BusyIcon';
import { Button } from '../../ui/Button';
import { Hint } from '../../ui/Hint';
import { TruncatedText } from '../../ui/TruncatedText';
import { callController } from '../calls/call-runtime';
import { markMissedCallsSeen, useMissedCalls } from '../calls/useCallHistory';
import { CONVERSATION_TEXTS, openConversation } from '../channels/open-conversation';
import { UserAvatar } from '../members/UserAvatar';
import { TRANSMISSION_TEXTS } from '../transmissions/transmission-texts';
import { useContactChange } from './useContactChange';

export type ContactRowProps = {
  user: User;
  isContact: boolean;
  /** Transmissions from them I have not heard in our direct conversation. */
  missedTransmissions?: number;
  /** After "Talk" opened the conversation (the menu closes). */
  onTalk?: () => void;
};

/**
 * One person in the Contacts list: "N missed" from our direct conversation, Talk (walkie-talkie
 * with them), the call button (spec §2), and add to / remove from contacts.
 */
export function ContactRow({
  user,
  isContact,
  missedTransmissions = 0,
  onTalk,
}: ContactRowProps) {
  const name = displayName(user);
  const queryClient = useQueryClient();
  const [opening, setOpening] = useState(false);
  const missed = useMissedCalls().has(user.id);
  const change = useContactChange();
  // Contacts are added by e-mail (spec §3); someone without one can only be called.
  const canChange = isContact || Boolean(user.email);
  const changeLabel = isContact ? `Remove ${name} from contacts` : `Add ${name} to contacts`;
  return (
    <li className="flex items-center gap-2 rounded-lg px-2 py-1.5 hover:bg-accent/60">
      <UserAvatar name={name} imageUrl={user.profileImageUrl} />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <TruncatedText text={name} className="text-sm font-medium" />
        {user.email && user.email !== name ? (
          <span className="truncate text-xs text-muted-foreground">{user.email}</span>
        ) : null}
        {/* Under the name, so the row keeps room for the name and every button at 390 px. */}
        {missed || missedTransmissions > 0 || isContact ? (
          <span className="flex flex-wrap gap-1">
            {missed ? (
              <Badge variant="destructive">
                <PhoneMissed aria-hidden="true" />
                Missed call
              </Badge>
            ) : null}
            {missedTransmissions > 0 ? (
              <Badge variant="destructive">
                <History aria-hidden="true" />
                {TRANSMISSION_TEXTS.missed(missedTransmissions)}
              </Badge>
            ) : null}
            {isContact ? <Badge variant="secondary">Contact</Badge> : null}
          </span>
        ) : null}
      </div>
      {canChange ? (
        <Hint content={changeLabel}>
          <Button
            size="icon"
            variant="ghost"
            aria-label={changeLabel}
            disabled={change.isPending}
            className="text-muted-foreground"
            onClick={() => change.mutate({ user, add: !isContact })}
          >
            {change.isPending ? (
              <BusyIcon />
            ) : isContact ? (
              <UserMinus aria-hidden="true" />
            ) : (
              <UserPlus aria-hidden="true" />
            )}
          </Button>
        </Hint>
      ) : null}
      <Hint content={CONVERSATION_TEXTS.talk(name)}>
        <Button
          size="icon"
          variant="ghost"
          aria-label={CONVERSATION_TEXTS.talk(name)}
          disabled={opening}
          className="text-primary"
          onClick={() => {
            setOpening(true);
            void openConversation(queryClient, user.id).then((opened) => {
              setOpening(false);
              if (opened) onTalk?.();
            });
          }}
        >
          {opening ? <BusyIcon /> : <RadioTower aria-hidden="true" />}
        </Button>
      </Hint>
      <Hint content={`Call ${name}`}>
        <Button
          size="icon"
          variant="ghost"
          aria-label={`Call ${name}`}
          className="text-primary"
          onClick={() => {
            markMissedCallsSeen(user.id);
            callController.place(user);
          }}
        >
          <Phone aria-hidden="true" />
        </Button>
      </Hint>
    </li>
  );
}
