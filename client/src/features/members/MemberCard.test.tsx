import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
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

describe('MemberCard', () => {
  it('shows the name, status label and dot', () => {
    render(
      <ul>
        <MemberCard member={member()} />
      </ul>,
    );
    expect(screen.getByText('Cal Tester')).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByTestId('member-card').getAttribute('data-status')).toBe('online');
    expect(screen.queryByText('Muted')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('tags admins and muted members, and says Speaking while talking', () => {
    render(
      <ul>
        <MemberCard member={member({ role: 'admin', isTalking: true, isMutedInChannel: true })} />
      </ul>,
    );
    expect(screen.getByText('Speaking')).toBeTruthy();
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByText('Muted')).toBeTruthy();
  });

  it('offers a named remove button when allowed', () => {
    const onRemove = vi.fn();
    render(
      <ul>
        <MemberCard member={member({ isOnline: false })} onRemove={onRemove} />
      </ul>,
    );
    expect(screen.getByText('Offline')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal Tester' }));
    expect(onRemove).toHaveBeenCalledWith(expect.objectContaining({ id: 'u2' }));
  });

  it('offers Talk (a one-to-one conversation) when given, and no button otherwise', () => {
    const onTalk = vi.fn();
    render(
      <ul>
        <MemberCard member={member()} onTalk={onTalk} />
      </ul>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Talk with Cal Tester' }));
    expect(onTalk).toHaveBeenCalledWith(expect.objectContaining({ id: 'u2' }));
  });

  it('keeps a Speaking member still while their voice is not heard (an open, silent microphone)', () => {
    const { container } = render(
      <ul>
        <MemberCard member={member({ isTalking: true })} />
      </ul>,
    );
    expect(screen.getByText('Speaking')).toBeTruthy();
    expect(animatedElements(container)).toEqual([]);
  });

  it('pulses the ring and the dot while their voice is heard, and not under reduced motion', () => {
    const { container } = render(
      <ul>
        <MemberCard member={member({ isTalking: true })} isAudible />
      </ul>,
    );
    const moving = animatedElements(container);
    expect(moving).toHaveLength(2);
    expect(moving).toContain(container.querySelector('[data-status="speaking"]:not(li)'));
    expect(animatesOnlyWithMotion(container)).toBe(true);
  });
});
