#!/usr/bin/env bash
# The services Chirp's tests and developers use, installed when missing and started when stopped:
# PostgreSQL (127.0.0.1:5432), Redis (127.0.0.1:6379), a LiveKit server in dev mode
# (127.0.0.1:7880, key devkey / secret secret), SeaweedFS as an S3-compatible server (127.0.0.1:8333,
# key chirp-test / secret chirp-test-secret, bucket chirp-test), nginx + openssl (installed only: the multi-instance
# test runs its own nginx with its own certificate) and Debian's coturn (installed only: the TURN
# test starts its own). Idempotent and quick when everything already runs.
#
#   scripts/services.sh            install/start all, then print the test environment as `export` lines
#   eval "$(scripts/services.sh)"  the same, exporting TEST_DATABASE_URL, TEST_REDIS_URL, TEST_LIVEKIT_*,
#                                  TEST_S3_*, TEST_NGINX_BINARY
#   scripts/services.sh postgres redis   only those
#
# Progress goes to stderr; stdout carries only the export lines.
# A new service is one `start_<name>` function below and one line in the `case` at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

LIVEKIT_VERSION="${LIVEKIT_VERSION:-v1.13.5}"
SEAWEEDFS_VERSION="${SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
STATE_DIR="${CHIRP_SERVICES_DIR:-$HOME/.cache/chirp-services}"
BIN_DIR="$STATE_DIR/bin"
PG_ROLE=chirp_test
PG_PASSWORD=chirp_test
mkdir -p "$STATE_DIR" "$BIN_DIR"

say() { printf 'services: %s\n' "$*" >&2; }
export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ]; then say "missing $*; run as root or: sudo apt-get install -y $*"; exit 1; fi
  if [ "$apt_updated" = 0 ]; then apt-get update -qq >&2; apt_updated=1; fi
  apt-get install -y -qq "$@" >&2
}
wait_for() { # wait_for <seconds> <command...>
  local seconds=$1; shift
  for _ in $(seq 1 $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  return 1
}
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    say "installing PostgreSQL"; apt_install postgresql
  fi
  local version; version=$(ls /etc/postgresql | sort -V | tail -n1)
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    say "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
    wait_for 30 pg_isready -q -h 127.0.0.1 -p 5432 || { say "PostgreSQL did not start"; exit 1; }
  fi
  # Debian asks for a password on 127.0.0.1: the tests use a role of their own with a password
  # (CREATEDB, not superuser), made over the local socket where the postgres user needs none.
  if ! PGPASSWORD=$PG_PASSWORD psql -h 127.0.0.1 -U $PG_ROLE -d postgres -tAc 'select 1' >/dev/null 2>&1; then
    say "creating the test role $PG_ROLE"
    as_postgres psql -q -v ON_ERROR_STOP=1 -d postgres >&2 <<SQL
do \$\$ begin
  if not exists (select from pg_roles where rolname = '$PG_ROLE') then
    create role $PG_ROLE login createdb password '$PG_PASSWORD';
  else
    alter role $PG_ROLE login createdb password '$PG_PASSWORD';
  end if;
end \$\$;
SQL
  fi
  # Tests drop their throwaway databases WITH (FORCE), which ends any backend still connected (an
  # autovacuum worker, say): that takes pg_signal_backend, still far short of a superuser.
  if [ "$(PGPASSWORD=$PG_PASSWORD psql -h 127.0.0.1 -U $PG_ROLE -d postgres -tAc "select pg_has_role('pg_signal_backend', 'member')")" != t ]; then
    as_postgres psql -q -d postgres -c "grant pg_signal_backend to $PG_ROLE" >&2
  fi
  PGPASSWORD=$PG_PASSWORD psql -h 127.0.0.1 -U $PG_ROLE -d postgres -tAc "select 1 from pg_database where datname='test'" | grep -q 1 \
    || PGPASSWORD=$PG_PASSWORD psql -h 127.0.0.1 -U $PG_ROLE -d postgres -qc 'create database test' >&2
  echo "export TEST_DATABASE_URL=postgres://$PG_ROLE:$PG_PASSWORD@127.0.0.1:5432/test"
}

start_redis() {
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    command -v redis-server >/dev/null || { say "installing Redis"; apt_install redis-server; }
    say "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >&2
    wait_for 30 redis-cli -h 127.0.0.1 -p 6379 ping || { say "Redis did not start"; exit 1; }
  fi
  echo "export TEST_REDIS_URL=redis://127.0.0.1:6379"
}

livekit_binary() { echo "$BIN_DIR/livekit-server-$LIVEKIT_VERSION"; }
livekit_install_pid=

install_livekit() {
  local binary; binary=$(livekit_binary)
  [ -x "$binary" ] && return 0
  command -v go >/dev/null || { say "Go is needed to install LiveKit"; return 1; }
  say "installing LiveKit $LIVEKIT_VERSION with go install (a few minutes the first time)"
  local gobin; gobin=$(mktemp -d)
  if ! GOBIN="$gobin" CGO_ENABLED=0 go install "github.com/livekit/livekit-server/cmd/server@$LIVEKIT_VERSION" >&2; then
    rm -rf "$gobin"; say "LiveKit $LIVEKIT_VERSION did not install"; return 1
  fi
  mv "$gobin/server" "$binary"; rm -rf "$gobin"
}

# LiveKit with scripts/livekit/test-livekit.yaml: what ships in deploy/livekit/livekit.yaml that
# Chirp relies on (no room created by a join; webhooks on), with dev keys. Its webhooks go to the
# relay on 127.0.0.1:7890 (scripts/livekit/webhook-relay.mjs), where each test registers its rooms'
# prefix and its own server's URL.
start_livekit() {
  local installed=0
  if [ -n "$livekit_install_pid" ]; then wait "$livekit_install_pid" || installed=$?; livekit_install_pid=; fi
  [ "$installed" = 0 ] && install_livekit || { say "LiveKit unavailable: suites that need it will not run"; return 0; }
  if ! curl -sS -o /dev/null http://127.0.0.1:7890/ 2>/dev/null; then
    say "starting the LiveKit webhook relay on 127.0.0.1:7890"
    nohup node scripts/livekit/webhook-relay.mjs 7890 >"$STATE_DIR/livekit-webhook-relay.log" 2>&1 &
  fi
  if ! curl -fsS -o /dev/null http://127.0.0.1:7880/ 2>/dev/null; then
    say "starting LiveKit (dev mode, scripts/livekit/test-livekit.yaml) on 127.0.0.1:7880"
    nohup "$(livekit_binary)" --dev --config scripts/livekit/test-livekit.yaml --node-ip 127.0.0.1 \
      >"$STATE_DIR/livekit.log" 2>&1 &
    wait_for 30 curl -fsS -o /dev/null http://127.0.0.1:7880/ || { say "LiveKit did not start; see $STATE_DIR/livekit.log"; return 1; }
  fi
  echo "export TEST_LIVEKIT_URL=ws://127.0.0.1:7880"
  echo "export TEST_LIVEKIT_API_KEY=devkey"
  echo "export TEST_LIVEKIT_API_SECRET=secret"
  echo "export TEST_LIVEKIT_BINARY=$(livekit_binary)"
  echo "export TEST_LIVEKIT_WEBHOOK_RELAY=http://127.0.0.1:7890"
}

seaweedfs_binary() { echo "$BIN_DIR/weed-$SEAWEEDFS_VERSION"; }
seaweedfs_install_pid=
S3_PORT=8333
S3_BUCKET=chirp-test
S3_KEY=chirp-test
S3_SECRET=chirp-test-secret

# SeaweedFS's go.mod has a replace directive, so `go install module@version` refuses it: the module
# is downloaded and built as the main module: one static binary. From empty caches, beside LiveKit's
# build, the two took 710 s of CPU (603 user + 106 system) together; alone, weed took 486 s of wall time
# on a busy two-core machine. The binary is cached in $BIN_DIR.
install_seaweedfs() {
  local binary; binary=$(seaweedfs_binary)
  [ -x "$binary" ] && return 0
  command -v go >/dev/null || { say "Go is needed to install SeaweedFS"; return 1; }
  say "installing SeaweedFS $SEAWEEDFS_VERSION with go build (several minutes the first time)"
  local dir out
  dir=$(go mod download -json "github.com/seaweedfs/seaweedfs@$SEAWEEDFS_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] || { say "SeaweedFS $SEAWEEDFS_VERSION did not download"; return 1; }
  out=$(mktemp -d)
  # At the lowest priority: it only takes CPU that the installs and tests leave idle.
  if ! (cd "$dir" && CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags="-s -w" -o "$out/weed" ./weed) >&2; then
    rm -rf "$out"; say "SeaweedFS $SEAWEEDFS_VERSION did not build"; return 1
  fi
  mv "$out/weed" "$binary"; rm -rf "$out"
}

s3_bucket_answers() {
  curl -fsS -o /dev/null --aws-sigv4 aws:amz:us-east-1:s3 -u "$S3_KEY:$S3_SECRET" "http://127.0.0.1:$S3_PORT/$S3_BUCKET"
}

# `weed mini` (master, volume, filer and S3 gateway in one process) on loopback ports, with one
# identity and the bucket made at start; tests use key prefixes of their own inside it.
start_seaweedfs() {
  local installed=0
  if [ -n "$seaweedfs_install_pid" ]; then wait "$seaweedfs_install_pid" || installed=$?; seaweedfs_install_pid=; fi
  [ "$installed" = 0 ] && install_seaweedfs || { say "SeaweedFS unavailable: the S3 store's suites will not run"; return 0; }
  if ! s3_bucket_answers 2>/dev/null; then
    local dir="$STATE_DIR/seaweedfs"
    mkdir -p "$dir/data"
    cat >"$dir/s3.json" <<JSON
{"identities":[{"name":"$S3_KEY","credentials":[{"accessKey":"$S3_KEY","secretKey":"$S3_SECRET"}],"actions":["Admin","Read","Write","List","Tagging"]}]}
JSON
    say "starting SeaweedFS (S3 on 127.0.0.1:$S3_PORT, bucket $S3_BUCKET)"
    nohup "$(seaweedfs_binary)" mini -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
      -s3.port=$S3_PORT -s3.config="$dir/s3.json" -bucket=$S3_BUCKET \
      -master.port=9333 -volume.port=9340 -filer.port=8888 \
      -webdav=false -admin.ui=false -admin.port.legacy=0 -s3.port.iceberg=0 -s3.port.lance=0 \
      >"$STATE_DIR/seaweedfs.log" 2>&1 &
    wait_for 60 s3_bucket_answers || { say "SeaweedFS did not start; see $STATE_DIR/seaweedfs.log"; return 1; }
  fi
  s3_exports
}

s3_exports() {
  echo "export TEST_S3_ENDPOINT=http://127.0.0.1:$S3_PORT"
  echo "export TEST_S3_BUCKET=$S3_BUCKET"
  echo "export TEST_S3_REGION=us-east-1"
  echo "export TEST_S3_ACCESS_KEY_ID=$S3_KEY"
  echo "export TEST_S3_SECRET_ACCESS_KEY=$S3_SECRET"
}

# SEAWEEDFS_IN_BACKGROUND=1 (.ci/run): SeaweedFS is built (minutes on a fresh machine) and started by
# a detached job while everything else goes on, and its variables are printed at once. Only the S3
# store's suites use it, and `npm test` runs them last (`npm run test:s3`), which waits for the bucket.
start_seaweedfs_in_background() {
  mkdir -p "$STATE_DIR"
  say "building and starting SeaweedFS in the background (log: $STATE_DIR/seaweedfs-background.log)"
  SEAWEEDFS_IN_BACKGROUND= setsid nohup bash scripts/services.sh seaweedfs >"$STATE_DIR/seaweedfs-background.log" 2>&1 </dev/null &
  echo "export TEST_S3_BACKGROUND_PID=$!"
  echo "export TEST_S3_BACKGROUND_LOG=$STATE_DIR/seaweedfs-background.log"
  s3_exports
}

# nginx for the multi-instance end-to-end test (e2e/multi-instance.spec.ts), which starts its own
# nginx process with deploy/nginx/chirp.conf.template and a self-signed certificate from openssl.
start_nginx() {
  local binary=/usr/sbin/nginx
  [ -x "$binary" ] || { say "installing nginx"; apt_install nginx; }
  command -v openssl >/dev/null || { say "installing openssl"; apt_install openssl; }
  echo "export TEST_NGINX_BINARY=$binary"
}

# Janus (Debian's package), installed only: bench/sfu/compare starts its own with a generated
# configuration, so nothing runs it as a shared service. Not in the default list; ask for it by name.
start_janus() {
  command -v janus >/dev/null || { say "installing Janus"; apt_install janus; }
  echo "export JANUS_BINARY=$(command -v janus)"
}

# coturn is installed, not started: e2e/turn.spec.ts runs its own on free ports, on loopback.
install_coturn() {
  command -v turnserver >/dev/null || { say "installing coturn"; apt_install coturn; }
  # Debian's package would start a system-wide coturn on 3478 where systemd runs: the tests don't want it.
  echo "export TEST_TURNSERVER_BINARY=$(command -v turnserver)"
}

DEFAULT_SERVICES=(postgres redis livekit seaweedfs nginx coturn)
services=("$@")
[ ${#services[@]} -gt 0 ] || services=("${DEFAULT_SERVICES[@]}")

# On a fresh machine the installs are the slow part: LiveKit's `go install` and SeaweedFS's `go build`
# (compiling, minutes) run in the background, side by side, while apt fetches and unpacks every missing package in one transaction (plus
# EXTRA_APT_PACKAGES, which .ci/run uses for Chromium); each start_* below then finds its part done.
apt_packages=(${EXTRA_APT_PACKAGES:-})
for service in "${services[@]}"; do
  case "$service" in
    postgres) { command -v pg_ctlcluster >/dev/null && ls /etc/postgresql/*/main >/dev/null 2>&1; } || apt_packages+=(postgresql) ;;
    redis) command -v redis-server >/dev/null || apt_packages+=(redis-server) ;;
    nginx) [ -x /usr/sbin/nginx ] || apt_packages+=(nginx); command -v openssl >/dev/null || apt_packages+=(openssl) ;;
    janus) command -v janus >/dev/null || apt_packages+=(janus) ;;
    coturn) command -v turnserver >/dev/null || apt_packages+=(coturn) ;;
    livekit)
      if [ -z "$livekit_install_pid" ] && [ ! -x "$(livekit_binary)" ] && command -v go >/dev/null; then
        install_livekit & livekit_install_pid=$!
      fi ;;
    seaweedfs)
      [ "${SEAWEEDFS_IN_BACKGROUND:-}" = 1 ] && continue
      if [ -z "$seaweedfs_install_pid" ] && [ ! -x "$(seaweedfs_binary)" ] && command -v go >/dev/null; then
        install_seaweedfs & seaweedfs_install_pid=$!
      fi ;;
  esac
done
[ ${#apt_packages[@]} -eq 0 ] || { say "installing ${apt_packages[*]}"; apt_install "${apt_packages[@]}"; }

for service in "${services[@]}"; do
  case "$service" in
    postgres) start_postgres ;;
    redis) start_redis ;;
    livekit) start_livekit ;;
    seaweedfs) if [ "${SEAWEEDFS_IN_BACKGROUND:-}" = 1 ]; then start_seaweedfs_in_background; else start_seaweedfs; fi ;;
    nginx) start_nginx ;;
    janus) start_janus ;;
    coturn) install_coturn ;;
    *) say "unknown service: $service (${DEFAULT_SERVICES[*]} janus)"; exit 2 ;;
  esac
done
