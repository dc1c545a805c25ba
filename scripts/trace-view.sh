#!/usr/bin/env bash
# make trace-view: write the timeline of a collective (Chrome trace-event
# JSON, docs/timeline.md), open it offline in speedscope under headless
# Chromium and save a screenshot.
#   TRACE_CMD  sb2sb arguments before --trace (default: an 8-rank all-gather of 64 KiB, fast mode)
#   TRACE      the trace file (default: waves/trace.json)
#   SHOT       the screenshot (default: waves/trace.png)
set -euo pipefail
cd "$(dirname "$0")/.."
TRACE_CMD=${TRACE_CMD:-nccom all_gather -r 8 -b 64K -e 64K --mode fast}
TRACE=${TRACE:-waves/trace.json}
SHOT=${SHOT:-waves/trace.png}
VIEWER=.trace-viewer/node_modules/speedscope/dist/release
if [ ! -f "$VIEWER/index.html" ]; then
  npm install --no-audit --no-fund --prefix .trace-viewer speedscope@1.25.0
fi
command -v chromium >/dev/null || { echo "trace-view: chromium is missing (Debian: apt-get install chromium)"; exit 1; }
mkdir -p "$(dirname "$TRACE")" "$(dirname "$SHOT")"
# shellcheck disable=SC2086
cargo run -q --release --bin sb2sb -- $TRACE_CMD --trace "$TRACE" >/dev/null
site=$(mktemp -d)
profile=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$site" "$profile"' EXIT
cp -r "$VIEWER"/. "$site"/
cp "$TRACE" "$site/trace.json"
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
sleep 1
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1600,900 \
  --virtual-time-budget=15000 --screenshot="$SHOT" \
  "http://127.0.0.1:$port/index.html#profileURL=trace.json&title=sb2sb" 2>/dev/null
echo "trace-view: $TRACE -> $SHOT"
