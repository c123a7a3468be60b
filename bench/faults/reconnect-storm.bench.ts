import type WebSocket from 'ws';
import {
  ask,
  connect,
  membersOf,
  numberArg,
  onMemberUpdate,
  sleep,
  startServer,
  stopServer,
  type RestMember,
  type Seeded,
} from './bench-server.js';
import { percentile } from '../stats.js';

/**
 * Reconnect storm: 1,000 members listening in one channel; within 10 s
 * every socket drops without a goodbye (as after a network blip or a proxy restart) and comes back,
 * except 5 % that never return. Presence must end correct — the returned ONLINE and active, the
 * others offline — in the REST member list and in the view of a member who stayed connected.
 * Prints the server's CPU over the storm and until presence is correct, and how many member_update
 * pushes a member who stayed connected received (every connected member received as many).
 */
const SOCKETS = numberArg('sockets', 1000);
const WINDOW_MS = numberArg('seconds', 10) * 1000;
const GONE_SHARE = 0.05;
const SETTLE_LIMIT_MS = 60_000;

const server = await startServer();
const seeded = await ask<Seeded>(server.child, { type: 'seed', count: SOCKETS + 1 }, 'seeded');
const { channelId, tokens } = seeded;
const userIds = seeded.userIds.slice(0, SOCKETS);
const join = (ws: WebSocket) => ws.send(JSON.stringify({ type: 'join_channel', channelId, listening: true }));

// A member who stays connected throughout and watches the pushes.
const watcher = await connect(server, tokens[SOCKETS]!);
const view = new Map<string, RestMember | { isOnline: boolean; isActiveInChannel: boolean }>();
/** member_update pushes the watcher received during the storm: each went to every connected member. */
let watcherPushes = 0;
onMemberUpdate(watcher, ({ member }) => {
  watcherPushes++;
  view.set(member.id, member);
});
join(watcher);

const sockets: WebSocket[] = [];
for (let i = 0; i < SOCKETS; i += 100) {
  const batch = await Promise.all(tokens.slice(i, Math.min(i + 100, SOCKETS)).map((token) => connect(server, token)));
  batch.forEach(join);
  sockets.push(...batch);
}
await sleep(3000);

const gone = new Set(userIds.filter((_, i) => i % Math.round(1 / GONE_SHARE) === 0));
watcherPushes = 0;
const cpuBefore = await ask<{ usage: NodeJS.CpuUsage; at: number }>(server.child, { type: 'cpu' }, 'cpu');
const stormStart = Date.now();
let failedReconnects = 0;
/** From asking to reconnect to the socket being open: the server's accept and session check. */
const reconnectMs: number[] = [];
await Promise.all(
  userIds.map(async (id, i) => {
    await sleep(Math.random() * WINDOW_MS);
    sockets[i]!.terminate();
    if (gone.has(id)) return;
    try {
      const asked = performance.now();
      const ws = await connect(server, tokens[i]!);
      reconnectMs.push(performance.now() - asked);
      join(ws);
      sockets[i] = ws;
    } catch {
      failedReconnects++;
    }
  }),
);
const stormMs = Date.now() - stormStart;

const correct = (member: { isOnline: boolean; isActiveInChannel: boolean } | undefined, id: string) =>
  gone.has(id) ? member !== undefined && !member.isOnline : member?.isOnline === true && member.isActiveInChannel;
const wrongIn = (members: Map<string, { isOnline: boolean; isActiveInChannel: boolean }>) =>
  userIds.filter((id) => !correct(members.get(id), id)).length;
let wrongRest: number;
let wrongView: number;
const stormEnd = Date.now();
for (;;) {
  const rest = await membersOf(server, channelId, tokens[SOCKETS]!);
  wrongRest = wrongIn(new Map(rest.map((member) => [member.userId, member])));
  wrongView = wrongIn(view);
  if ((wrongRest === 0 && wrongView === 0) || Date.now() - stormEnd > SETTLE_LIMIT_MS) break;
  await sleep(250);
}
const settledMs = Date.now() - stormStart;
const cpuAfter = await ask<{ usage: NodeJS.CpuUsage; at: number }>(server.child, { type: 'cpu' }, 'cpu');
const cpuMs = (cpuAfter.usage.user - cpuBefore.usage.user + cpuAfter.usage.system - cpuBefore.usage.system) / 1000;
const wallMs = cpuAfter.at - cpuBefore.at;

console.log(`reconnect storm: ${SOCKETS} sockets dropped and ${SOCKETS - gone.size} reconnected within ${(stormMs / 1000).toFixed(1)} s (${gone.size} never came back; ${failedReconnects} reconnects failed)`);
console.log(`  reconnect time (asked → open): p50 ${percentile(reconnectMs, 50).toFixed(0)} ms, p99 ${percentile(reconnectMs, 99).toFixed(0)} ms`);
const verdict = wrongRest === 0 && wrongView === 0 ? 'correct' : 'STILL WRONG';
console.log(`  presence ${verdict} ${(settledMs / 1000).toFixed(1)} s after the storm began: ${wrongRest} wrong in the member list, ${wrongView} wrong in a connected member's view (goal 0)`);
console.log(`  server CPU: ${(cpuMs / 1000).toFixed(1)} s over ${(wallMs / 1000).toFixed(1)} s = ${((cpuMs / wallMs) * 100).toFixed(0)} % of one core on average`);
console.log(`  member_update pushes to each connected member during the storm: ${watcherPushes}`);
watcher.terminate();
for (const ws of sockets) ws.terminate();
await stopServer(server.child);
process.exit(0);
