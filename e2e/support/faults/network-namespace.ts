import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NetworkNamespace {
  /** The host's address on the link, where a server for the namespace listens. */
  hostAddress: string;
  /** A Chromium launcher that runs inside the namespace (give it to `executablePath`). */
  chromium: string;
  /** Pulls the cable: every packet between the namespace and the host is lost until `restore`. */
  cut(): void;
  restore(): void;
  destroy(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * A network namespace joined to the host by one veth link, for a browser whose network a test can
 * really cut: Playwright's `setOffline` blocks new HTTP requests but neither open WebSockets nor
 * WebRTC media, so on its own it cuts nothing the voice uses. Needs root (CI runs as root). Only
 * this namespace's link goes down; nothing else on the machine is touched.
 */
export function createNetworkNamespace(): NetworkNamespace {
  const tag = Math.random().toString(16).slice(2, 8);
  const name = `chirpf-${tag}`;
  const hostLink = `cfh${tag}`;
  const nsLink = `cfn${tag}`;
  const subnet = `10.${200 + (parseInt(tag.slice(0, 2), 16) % 50)}.${parseInt(tag.slice(2, 4), 16)}`;
  const hostAddress = `${subnet}.1`;
  ip('netns', 'add', name);
  ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', nsLink);
  ip('link', 'set', nsLink, 'netns', name);
  ip('addr', 'add', `${hostAddress}/30`, 'dev', hostLink);
  ip('link', 'set', hostLink, 'up');
  ip('netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/30`, 'dev', nsLink);
  ip('netns', 'exec', name, 'ip', 'link', 'set', nsLink, 'up');
  ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  const dir = mkdtempSync(join(tmpdir(), 'chirp-netns-'));
  const chromium = join(dir, 'chromium');
  const real = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  writeFileSync(chromium, `#!/bin/sh\nexec ip netns exec ${name} ${real} "$@"\n`);
  chmodSync(chromium, 0o755);
  return {
    hostAddress,
    chromium,
    cut: () => ip('link', 'set', hostLink, 'down'),
    restore: () => ip('link', 'set', hostLink, 'up'),
    destroy: () => {
      try {
        ip('netns', 'delete', name);
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
