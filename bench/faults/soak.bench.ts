import type WebSocket from 'ws';
import { ask, connect, membersOf, numberArg, onMemberUpdate, rssOf, sleep, startServer, stopServer, type Seeded } from './bench-server.js';

/**
 * Soak: 50 members in one channel, each pressing to talk (start_talking,
 * released 1 s later) every 5 s for 10 minutes (`--minutes` shortens it, `--members` resizes it).
 * Prints the server's RSS growth from the end of the warm-up to the end (goal < 5 %), members left
 * talking once everyone released (goal 0, by the REST member list and by every member's pushed
 * view), and member updates lost (a press some member never saw; goal 0).
 */
const MEMBERS = numberArg('members', 50);
const MINUTES = numberArg('minutes', 10);
const PRESS_EVERY_MS = 5000;
const PRESS_LENGTH_MS = 1000;
const WARM_UP_MS = 20_000;

const server = await startServer();
const seeded = await ask<Seeded>(server.child, { type: 'seed', count: MEMBERS }, 'seeded');
const { channelId, userIds, tokens } = seeded;
const sockets: WebSocket[] = [];
for (const token of tokens) sockets.push(await connect(server, token));

/** What each member's screen shows of each member: talking or not, and how many presses it saw. */
const views = userIds.map(() => new Map<string, { talking: boolean; starts: number }>());
sockets.forEach((ws, i) =>
  onMemberUpdate(ws, ({ member }) => {
    if (member === undefined) return;
    const view = views[i]!;
    const before = view.get(member.id) ?? { talking: false, starts: 0 };
    view.set(member.id, { talking: member.isTalking, starts: before.starts + (member.isTalking && !before.talking ? 1 : 0) });
  }),
);
for (const ws of sockets) ws.send(JSON.stringify({ type: 'join_channel', channelId, listening: true }));
await sleep(2000);

const presses = userIds.map(() => 0);
let countFrom = Infinity;
let running = true;
const timers: NodeJS.Timeout[] = [];
const press = (i: number) => {
  if (!running) return;
  const ws = sockets[i]!;
  ws.send(JSON.stringify({ type: 'start_talking', channelId }));
  if (Date.now() >= countFrom) presses[i]!++;
  // Releases are never cancelled: every press ends, as a finger lifts.
  setTimeout(() => ws.send(JSON.stringify({ type: 'stop_talking', channelId })), PRESS_LENGTH_MS);
};
// Members press in turn, spread over the 5 s, as a team would.
sockets.forEach((_, i) => {
  timers.push(
    setTimeout(() => {
      press(i);
      timers.push(setInterval(() => press(i), PRESS_EVERY_MS));
    }, (i * PRESS_EVERY_MS) / MEMBERS),
  );
});

await sleep(WARM_UP_MS);
const rssBase = await rssOf(server.child);
// Presses are counted from here, after every view has settled on the warm-up's.
for (const view of views) for (const [id, seen] of view) view.set(id, { ...seen, starts: 0 });
countFrom = Date.now();
const started = Date.now();
const durationMs = MINUTES * 60_000;
while (Date.now() - started < durationMs) {
  await sleep(Math.min(30_000, durationMs - (Date.now() - started)));
  const elapsed = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`  ${elapsed} min: ${presses.reduce((a, b) => a + b, 0)} presses`);
}
running = false;
for (const timer of timers) clearTimeout(timer);
// Every press is released within 1 s; then the 50 ms batches drain.
await sleep(PRESS_LENGTH_MS + 2000);
const rssEnd = await rssOf(server.child);

const rest = await membersOf(server, channelId, tokens[0]!);
const stuckRest = rest.filter((member) => member.isTalking).length;
let stuckViews = 0;
let lost = 0;
views.forEach((view) => {
  userIds.forEach((id, j) => {
    const seen = view.get(id) ?? { talking: false, starts: 0 };
    if (seen.talking) stuckViews++;
    lost += Math.max(0, presses[j]! - seen.starts);
  });
});
const totalPresses = presses.reduce((a, b) => a + b, 0);
const growth = ((rssEnd - rssBase) / rssBase) * 100;
console.log(`soak: ${MEMBERS} members, a press every ${PRESS_EVERY_MS / 1000} s each for ${MINUTES} min (${totalPresses} presses)`);
console.log(`  server RSS ${(rssBase / 2 ** 20).toFixed(1)} MB → ${(rssEnd / 2 ** 20).toFixed(1)} MB: growth ${growth.toFixed(2)} % (goal < 5 %)`);
console.log(`  stuck talking after release: ${stuckRest} in the member list, ${stuckViews} in members' views (goal 0)`);
console.log(`  member updates lost: ${lost} of ${totalPresses * MEMBERS} presses × viewers (goal 0)`);
for (const ws of sockets) ws.terminate();
await stopServer(server.child);
process.exit(0);
