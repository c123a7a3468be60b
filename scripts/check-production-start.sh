#!/usr/bin/env bash
# Proves that a built tree starts with runtime dependencies only, the way the Dockerfile runs it:
# copies the build output, migrations and the lock file into an empty directory, installs without
# dev dependencies, starts `npm run serve` on a free port and checks that the app answers.
#
#   npm run build && bash scripts/check-production-start.sh
#
# Not part of `npm test` (the install takes a while); `.ci/run` runs it after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'production-start: %s\n' "$*" >&2; }
[ -f dist/server/server/src/main.js ] && [ -f dist/client/index.html ] || { say "run npm run build first"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/chirp-prod-XXXXXX")
server_pid=
cleanup() {
  # The server runs in its own process group: killing npm alone left node running after CI.
  if [ -n "$server_pid" ]; then
    kill -- "-$server_pid" 2>/dev/null || kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/app/server"
# .npmrc too: its log level keeps the Node 22 engine notes of three dependencies out of the output.
cp package.json package-lock.json .npmrc "$work/app/"
cp -r dist "$work/app/dist"
cp -r server/drizzle "$work/app/server/drizzle"
cd "$work/app"

# `npm ci` refuses this network's lock (other platforms' optional packages are missing from the
# registry); `npm install` with the lock installs the same versions and skips those.
say "installing runtime dependencies only"
npm install --omit=dev --no-audit --no-fund >/dev/null
for dev_only in vite react tsx typescript @fastify/middie drizzle-kit; do
  if [ -e "node_modules/$dev_only" ]; then say "dev-only package $dev_only was installed"; exit 1; fi
done

# The built-in SFU's native addon (built by `npm run build` where a C compiler is) loads from the
# runtime tree: it takes OpenSSL's symbols from Node itself, so nothing else has to be installed.
if [ -f dist/native/sfu-datagrams.node ]; then
  node -e 'const n = require("./dist/native/sfu-datagrams.node"); if (typeof n.sendDatagrams !== "function") process.exit(1)' \
    || { say "dist/native/sfu-datagrams.node does not load"; exit 1; }
  say "the built-in SFU's native addon loads"
fi

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
say "starting npm run serve on port $port"
PORT=$port HOST=127.0.0.1 PUBLIC_URL="http://127.0.0.1:$port" DATA_DIR="$work/data" LOG_LEVEL=warn \
  setsid npm run serve --silent >"$work/server.log" 2>&1 &
server_pid=$!

ready=0
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [ "$ready" != 1 ]; then say "server did not become ready"; cat "$work/server.log" >&2; exit 1; fi

curl -fsS -H 'accept: text/html' "http://127.0.0.1:$port/" | grep -q '<div id="root"' \
  || { say "the client page was not served"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/auth/user")
[ "$status" = 401 ] || { say "GET /api/auth/user answered $status, expected 401"; exit 1; }
location=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$port/api/login")
case "$location" in *"/oidc/auth"*) ;; *) say "GET /api/login did not redirect to the built-in provider ($location)"; exit 1 ;; esac
say "ok: the built tree serves the app, the API and sign-in without dev dependencies"
