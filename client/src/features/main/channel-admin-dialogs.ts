/**
 * The dialogs only a channel's admin opens, in one chunk loaded on first use: one lazy chunk
 * instead of one per dialog keeps the main screen's shared code in fewer, better-compressed files.
 */
export { AddMembersDialog } from '../members/AddMembersDialog';
export { TalkModeDialog } from '../floor/TalkModeDialog';
