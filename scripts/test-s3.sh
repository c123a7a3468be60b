#!/usr/bin/env bash
# The S3 store's suites: transmission audio in a real S3-compatible bucket (SeaweedFS, from
# scripts/services.sh). `npm test` runs them last, after the end-to-end tests, because .ci/run has
# SeaweedFS built and started in the background (minutes on a fresh machine, at the lowest CPU
# priority) while everything else runs; here we wait for its bucket, then run only the S3 variants
# (TEST_S3_PHASE=only; `npm test` ran the database variants of the same files with TEST_S3_PHASE=later).
set -euo pipefail
cd "$(dirname "$0")/.."

S3_SUITES=(
  server/src/transmissions/audio-store/transmission-audio-store.contract.integration.test.ts
  server/src/transmissions/audio-store/create-audio-store.integration.test.ts
  server/src/transmissions/audio-store/migrate-transmission-files.integration.test.ts
  server/src/transmissions/transmissions.integration.test.ts
  server/src/transmissions/transmissions-two-instances.integration.test.ts
)

if [ -z "${TEST_S3_ENDPOINT:-}" ]; then
  echo "test:s3: TEST_S3_ENDPOINT is not set (scripts/services.sh starts SeaweedFS and exports it): the S3 store's suites did not run"
  exit 0
fi

bucket_answers() {
  curl -fsS -o /dev/null --max-time 5 --aws-sigv4 "aws:amz:${TEST_S3_REGION:-us-east-1}:s3" \
    -u "${TEST_S3_ACCESS_KEY_ID:-}:${TEST_S3_SECRET_ACCESS_KEY:-}" "$TEST_S3_ENDPOINT/$TEST_S3_BUCKET" 2>/dev/null
}

started=$SECONDS
until bucket_answers; do
  if [ -n "${TEST_S3_BACKGROUND_PID:-}" ] && ! kill -0 "$TEST_S3_BACKGROUND_PID" 2>/dev/null && ! bucket_answers; then
    echo "test:s3: SeaweedFS's background build or start ended without a bucket at $TEST_S3_ENDPOINT:" >&2
    tail -n 30 "${TEST_S3_BACKGROUND_LOG:-/dev/null}" >&2 || true
    exit 1
  fi
  if [ $((SECONDS - started)) -gt 1800 ]; then
    echo "test:s3: no S3 bucket at $TEST_S3_ENDPOINT after 30 minutes" >&2
    exit 1
  fi
  sleep 2
done
echo "test:s3: the S3 server answered after waiting $((SECONDS - started)) s"

TEST_S3_PHASE=only exec npx vitest run "${S3_SUITES[@]}"
