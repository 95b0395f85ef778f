# Part g of scripts/faults: connection floods (issue 24). Sourced by scripts/faults after its
# setup (cluster, demo data, BIN, WORK, helpers); defines flood_part.
#
# g1. vand started as systemd starts a unit without LimitNOFILE (soft limit 1,024, a higher hard
#     one): it raises its soft limit to the hard one and logs the caps. 2,000 half-open connections
#     (half a request head, never finished; each one vand closes is opened again at once) and 1,000
#     notification streams of one rider are held while another rider makes 50 bookings and 50
#     reads, 5 at a time: every one answers 201/200, p99 <= 1 s, every booking is in the database
#     once. Then the flood ends and vand's CPU must be back to idle (< 5 % of a core over 0.5 s)
#     within 5 s.
# g2. vand whose hard limit is 1,024 too (it cannot raise it): caps 836 served + 52 reserve. 2,000
#     half-open connections in a burst of about a second, API requests and probes polled every
#     0.2 s throughout: none hangs (a connection past the reserve is closed at once), vand stays
#     below its file limit; once the burst is over, with 836 half-open sockets held, an API request
#     gets 503 with Retry-After within 1 s while /healthz answers 200; once the head timeout
#     (10 s here) has closed the flood, the API answers again.

FLOOD_PY="$ROOT/scripts/lib/flood.py"

# cpu_ticks PID: user + system clock ticks used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# idle_after PID LIMIT: seconds until a 0.5 s window uses < 5 % of a core, or "never" within LIMIT s.
idle_after() {
    local pid="$1" limit="$2" start a b
    start=$(date +%s.%N)
    while python3 -c "import sys,time; sys.exit(not time.time() - $start < $limit)"; do
        a=$(cpu_ticks "$pid"); sleep 0.5; b=$(cpu_ticks "$pid")
        # 100 ticks a second: 0.5 s at 5 % of a core is 2.5 ticks.
        if [ $((b - a)) -le 2 ]; then python3 -c "import time; print(round(time.time() - $start, 1))"; return 0; fi
    done
    echo never
}

flood_part() {
    log "g1. 2,000 half-open connections + 1,000 notification streams, then 50 bookings and 50 reads by another rider"
    local PF VF streamer booker stats answers health lost idle
    PF="$(free_port)"
    # Route improvement off: its background search after the bookings would be CPU that is not the flood's.
    ( ulimit -Sn 1024; start_vand "$PF" VAND_IMPROVE_SECONDS=0 ) || { fail "g1: vand starts with a soft limit of 1,024"; return; }
    VF="$(pgrep -n -f "$BIN/vand serve")"; PIDS+=("$VF")
    caps="$(grep -m1 'connections: ' "$WORK/vand-$PF.log")"
    log "   $caps"
    check "g1: vand raised its soft open-file limit from 1,024 and logged its caps once" \
        [ "$(grep -c 'connections: ' "$WORK/vand-$PF.log")" = 1 -a "$(grep -o 'open_files=[0-9]*' <<<"$caps" | cut -d= -f2)" -gt 3100 ]
    streamer="$(rider_token floodstream "$PF")" && booker="$(rider_token floodbook "$PF")" \
        || { fail "g1: riders sign in"; return; }
    rm -f "$WORK/flood.ready" "$WORK/flood.stop" "$WORK/flood.stats"
    python3 "$FLOOD_PY" hold "$PF" "$streamer" 2000 1000 "$WORK" & local FLOODER=$!; PIDS+=("$FLOODER")
    for _ in $(seq 1 600); do [ -f "$WORK/flood.ready" ] && break; sleep 0.1; done
    check "g1: the flood is in place (2,000 half-open + 1,000 streams opened)" [ -f "$WORK/flood.ready" ]
    # Every stream answered (or closed by a per-rider cap) before the riders start.
    local streams_settled=no
    for _ in $(seq 1 300); do
        python3 -c "import json,sys; s = json.load(open(sys.argv[1])); sys.exit(not s['streams_answered'] + s['streams_closed_by_vand'] >= 1000)" \
            "$WORK/flood.progress" 2>/dev/null && { streams_settled=yes; break; }
        sleep 0.1
    done
    log "   streams: $(cat "$WORK/flood.progress")"
    check "g1: all 1,000 notification streams answered (or closed by vand) within 30 s" [ "$streams_settled" = yes ]
    health="$(curl -s -o /dev/null --max-time 5 -w '%{http_code} %{time_total}' "http://127.0.0.1:$PF/healthz")"
    check "g1: /healthz during the flood: $health" python3 -c "import sys; c, t = sys.argv[1].split(); sys.exit(not (c == '200' and float(t) < 1))" "$health"
    # 50 minutes apart (every 5th of the 10-minute times no other part books), so no two of the
    # rider's rides overlap: a rider may hold no two rides whose windows and ride times meet.
    awk 'NR >= 841 && (NR - 841) % 5 == 0' "$WORK/times" | head -50 >"$WORK/times-g"
    # 5 at a time, each worker pausing 0.25 s between requests: the 100 requests span ~6 s, more
    # than the head timeout, so they meet vand closing and the flooder reopening half-open sockets.
    python3 "$FLOOD_PY" riders "$PF" "$booker" "$WORK/times-g" 50 5 0.25 "$WORK/g.out"
    answers="$(python3 "$FLOOD_PY" percentiles "$WORK/g.out")"
    log "   during the flood: $answers"
    check "g1: all 50 bookings answer 201 and all 50 reads 200 during the flood" \
        [ "$(grep -c '^book 201 ' "$WORK/g.out")" = 50 -a "$(grep -c '^read 200 ' "$WORK/g.out")" = 50 ]
    check "g1: ... p99 <= 1 s ($answers)" python3 -c "import sys; sys.exit(not float(sys.argv[1].split('p99=')[1].split()[0]) <= 1.0)" "$answers"
    grep '^book 201 ' "$WORK/g.out" | awk '{print $4}' | sort >"$WORK/g.ids"
    printf '%s\n' "CREATE TEMP TABLE got (id uuid);" "\\copy got FROM '$WORK/g.ids'" \
        "SELECT count(*) FILTER (WHERE n <> 1) FROM (SELECT g.id, (SELECT count(*) FROM rides r WHERE r.id = g.id) n FROM got g) x;" >"$WORK/g.sql"
    lost="$(psql -X -q -At -v ON_ERROR_STOP=1 -f "$WORK/g.sql" | tail -1)"
    check "g1: every booking is in the database exactly once ($(wc -l <"$WORK/g.ids") rides, $lost missing or doubled)" \
        [ "$lost" = 0 -a "$(q "SELECT count(*) FROM rides WHERE net_id = 'floodbook'")" = 50 ]
    touch "$WORK/flood.stop"; wait "$FLOODER" 2>/dev/null
    stats="$(cat "$WORK/flood.stats" 2>/dev/null)"
    log "   flood: $stats"
    check "g1: the half-open connections were held at 2,000 by reopening each one vand closed after the head timeout" \
        python3 -c "import json,sys; s = json.loads(sys.argv[1]); sys.exit(not (s['half_closed_by_vand'] > 0 and s['connect_failed'] == 0))" "$stats"
    idle="$(idle_after "$VF" 10)"
    check "g1: vand's CPU is back to idle $idle s after the flood ends (limit 5 s)" \
        python3 -c "import sys; sys.exit(not (sys.argv[1] != 'never' and float(sys.argv[1]) <= 5))" "$idle"
    check "g1: vand is still running" kill -0 "$VF"
    { kill "$VF"; wait "$VF"; } 2>/dev/null

    log "g2. hard limit 1,024 (no raise): 2,000 half-open connections at once against the cap"
    PF="$(free_port)"
    # A 10 s head timeout keeps the served half-open sockets open while the polls watch the cap.
    ( ulimit -n 1024; start_vand "$PF" VAND_IMPROVE_SECONDS=0 VAND_HEAD_TIMEOUT=10 ) || { fail "g2: vand starts with a limit of 1,024"; return; }
    VF="$(pgrep -n -f "$BIN/vand serve")"; PIDS+=("$VF")
    caps="$(grep -m1 'connections: ' "$WORK/vand-$PF.log")"
    log "   $caps"
    check "g2: caps under 1,024 open files: 836 served, 52 reserve" grep -q 'reserve=52 served=836' <<<"$caps"
    booker="$(rider_token floodcap "$PF")" || { fail "g2: rider signs in"; return; }
    rm -f "$WORK/flood.ready" "$WORK/flood.stop"
    python3 - "$PF" "$WORK" <<'PY' & local HOLDER=$!; PIDS+=("$HOLDER")
import os, socket, sys, time
port, work = int(sys.argv[1]), sys.argv[2]
held = []
for index in range(2000):
    # 100 at a time, so the listen backlog (256) does not overflow into SYN retries seconds later.
    if index % 100 == 0:
        time.sleep(0.05)
    s = socket.socket()
    try:
        s.connect(("127.0.0.1", port)); s.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\n"); held.append(s)
    except OSError:
        s.close()
open(os.path.join(work, "flood.ready"), "w").write("%d\n" % len(held))
while not os.path.exists(os.path.join(work, "flood.stop")):
    time.sleep(0.1)
PY
    # During the burst and after it, an API request and a probe every 0.2 s, each on a new
    # connection: "<phase> <api status> <api s> <probe status> <probe s> <open files>".
    local phase=burst api a b held_cpu=
    : >"$WORK/g2.polls"
    for _ in $(seq 1 100); do
        [ "$phase" = burst ] && [ -f "$WORK/flood.ready" ] && phase=held
        api="$(curl -s -D "$WORK/g2.headers" -o /dev/null --max-time 3 -w '%{http_code} %{time_total}' -H "authorization: Bearer $booker" "http://127.0.0.1:$PF/v1/rides")"
        [ "${api%% *}" = 503 ] && cp "$WORK/g2.headers" "$WORK/g2.headers.503"
        printf '%s %s %s %s\n' "$phase" "$api" \
            "$(curl -s -o /dev/null --max-time 3 -w '%{http_code} %{time_total}' "http://127.0.0.1:$PF/healthz")" \
            "$(ls "/proc/$VF/fd" | wc -l)" >>"$WORK/g2.polls"
        [ "$phase" = held ] && grep -q '^held 200 ' "$WORK/g2.polls" && break
        if [ "$phase" = held ] && [ -z "$held_cpu" ] && grep -q '^held 503 ' "$WORK/g2.polls"; then
            a=$(cpu_ticks "$VF"); sleep 1; b=$(cpu_ticks "$VF"); held_cpu=$((b - a))
        fi
        sleep 0.2
    done
    log "   polls, by phase: $(awk '{n[$1 " api " $2]++; n[$1 " probe " $4]++; if ($3 > a) a = $3; if ($5 > p) p = $5; if ($6 > f) f = $6}
        END {for (k in n) printf "%s x%d, ", k, n[k]; printf "slowest api %.3f s, probe %.3f s, most open files %d", a, p, f}' "$WORK/g2.polls")"
    check "g2: every poll answered or was refused within 1 s, none hung ($(wc -l <"$WORK/g2.polls") polls)" \
        awk '$3 >= 1 || $5 >= 1 {bad = 1} END {exit bad}' "$WORK/g2.polls"
    check "g2: vand never reached its open-file limit (most $(awk '{print $6}' "$WORK/g2.polls" | sort -n | tail -1) of 1,024)" \
        awk '$6 >= 1000 {bad = 1} END {exit bad}' "$WORK/g2.polls"
    check "g2: with the burst over and 836 half-open connections held, the API got a fast 503" grep -q '^held 503 ' "$WORK/g2.polls"
    log "   vand's CPU over 1 s with 836 half-open sockets held (the cap full): ${held_cpu:-?} % of a core"
    check "g2: ... with Retry-After: 5" grep -qi '^retry-after: 5' "$WORK/g2.headers.503"
    check "g2: ... while /healthz answered 200" awk '$1 == "held" && $2 == 503 && $4 == 200 {ok = 1} END {exit !ok}' "$WORK/g2.polls"
    check "g2: once the head timeout closed the flood, GET /v1/rides answered 200" grep -q '^held 200 ' "$WORK/g2.polls"
    touch "$WORK/flood.stop"; wait "$HOLDER" 2>/dev/null
    idle="$(idle_after "$VF" 10)"
    check "g2: vand's CPU is back to idle $idle s after (limit 5 s)" \
        python3 -c "import sys; sys.exit(not (sys.argv[1] != 'never' and float(sys.argv[1]) <= 5))" "$idle"
    { kill "$VF"; wait "$VF"; } 2>/dev/null
}
