import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ChannelMember } from '../../../../protocol/channels';
import { animatedElements, animatesOnlyWithMotion } from '../../testing/animated-elements';
import { MemberCard } from './MemberCard';

const member = (overrides: Partial<ChannelMember> = {}): ChannelMember => ({
  id: 'u2',
  userId: 'u2',
  name: 'Cal Tester',
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: 'cal@x.test',
  profileImageUrl: null,
  ...overrides,
});

afterEach(cleanup);

const card = () => screen.getByTestId('member-card');

describe('MemberCard', () => {
  it('shows the name, status label and dot', () => {
    render(
      <ul>
        <MemberCard member={member()} />
      </ul>,
    );
    expect(screen.getByText('Cal Tester')).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(card().getAttribute('data-status')).toBe('online');
    expect(screen.queryByText('Muted')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says Online, not Speaking, for an open microphone that is not heard, and nothing moves', () => {
    const { container } = render(
      <ul>
        <MemberCard member={member({ isTalking: true })} />
      </ul>,
    );
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.queryByText('Speaking')).toBeNull();
    expect(animatedElements(container)).toEqual([]);
  });

  it('says Speaking while their voice is heard, ring and dot pulsing only with motion allowed', () => {
    const { container } = render(
      <ul>
        <MemberCard member={member({ isTalking: true })} isHeard />
      </ul>,
    );
    expect(screen.getByText('Speaking')).toBeTruthy();
    expect(card().getAttribute('data-status')).toBe('speaking');
    const moving = animatedElements(container);
    expect(moving).toHaveLength(2);
    expect(moving).toContain(container.querySelector('[data-status="speaking"]:not(li)'));
    expect(animatesOnlyWithMotion(container)).toBe(true);
  });

  it('follows the heard level, not the microphone: heard without isTalking is Speaking too', () => {
    render(
      <ul>
        <MemberCard member={member({ isTalking: false })} isHeard />
      </ul>,
    );
    expect(screen.getByText('Speaking')).toBeTruthy();
  });

  it('never shows an admin-muted member as speaking, even when reported heard', () => {
    const { container } = render(
      <ul>
        <MemberCard
          member={member({ role: 'admin', isTalking: true, isMutedInChannel: true })}
          isHeard
        />
      </ul>,
    );
    expect(screen.queryByText('Speaking')).toBeNull();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByText('Muted')).toBeTruthy();
    expect(animatedElements(container)).toEqual([]);
  });

  it('shows the menu it is given, and a card as last seen when the server is away', () => {
    render(
      <ul>
        <MemberCard
          member={member()}
          menu={<button type="button">Actions for Cal Tester</button>}
          stale
        />
      </ul>,
    );
    expect(screen.getByRole('button', { name: 'Actions for Cal Tester' })).toBeTruthy();
    expect(card().getAttribute('data-stale')).toBe('true');
  });
});
