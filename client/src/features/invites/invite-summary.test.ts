import { describe, expect, it } from 'vitest';
import {
  classifyInviteError,
  firstEmail,
  formatInviteSummary,
  InviteAbortedError,
  inviteAll,
} from './invite-summary';

const failure = (status: number, body: string) => new Error(`${status}: ${body}`);

describe('classifyInviteError', () => {
  it('counts 409 or an "already" message as an existing member', () => {
    expect(classifyInviteError(failure(409, '{"message":"Conflict"}'))).toBe('already');
    expect(classifyInviteError(failure(400, 'User is already a member'))).toBe('already');
  });

  it('counts 404 as not found', () => {
    expect(classifyInviteError(failure(404, '{"message":"User not found"}'))).toBe('notFound');
  });

  it('aborts on server errors', () => {
    expect(() => classifyInviteError(failure(500, 'boom'))).toThrow(InviteAbortedError);
    expect(() => classifyInviteError(failure(503, 'down'))).toThrow(
      'Server error while adding member',
    );
  });

  it('rethrows anything else', () => {
    const forbidden = failure(403, '{"message":"Only the channel admin can add members"}');
    expect(() => classifyInviteError(forbidden)).toThrow(forbidden);
  });
});

describe('firstEmail', () => {
  it('uses only the first non-empty address', () => {
    expect(firstEmail({ email: ['a@x.test', 'b@x.test'] })).toBe('a@x.test');
    expect(firstEmail({ email: ['  ', 'b@x.test'] })).toBe('b@x.test');
    expect(firstEmail({ email: [] })).toBeNull();
    expect(firstEmail({})).toBeNull();
  });
});

describe('inviteAll', () => {
  it('counts invited, already members and not found, contacts without e-mail as not found', async () => {
    const sent: string[] = [];
    const summary = await inviteAll(
      [
        { email: ['new@x.test', 'other@x.test'] },
        { email: ['member@x.test'] },
        { email: ['nobody@x.test'] },
        { email: [] },
      ],
      (email) => {
        sent.push(email);
        if (email === 'member@x.test')
          return Promise.reject(failure(409, '{"message":"User is already a member"}'));
        if (email === 'nobody@x.test') return Promise.reject(failure(404, 'Not found'));
        return Promise.resolve();
      },
    );
    expect(sent).toEqual(['new@x.test', 'member@x.test', 'nobody@x.test']);
    expect(summary).toEqual({ invited: 1, alreadyMembers: 1, notFound: 2 });
    expect(formatInviteSummary(summary)).toBe('Invited: 1, Already members: 1, Not found: 2');
  });

  it('stops at the first server error', async () => {
    const sent: string[] = [];
    const run = inviteAll([{ email: ['a@x.test'] }, { email: ['b@x.test'] }], (email) => {
      sent.push(email);
      return Promise.reject(failure(500, 'boom'));
    });
    await expect(run).rejects.toThrow('Server error while adding member');
    expect(sent).toEqual(['a@x.test']);
  });
});
