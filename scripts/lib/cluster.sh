# Shared by scripts/faults and scripts/bench-load: a throwaway PostgreSQL cluster on a
# Unix socket in a temp folder, release vand/vanadmin, and a logged-in rider.
# Source it; it defines functions and sets WORK, SOCK, BIN, PGBIN, DATABASE_URL.

[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

log() { printf '==> %s\n' "$*" >&2; }

# Runs a command as the postgres user when we are root (initdb/postgres refuse root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Builds the release binaries (quietly) and sets BIN.
build_release() {
    log "building release vand and vanadmin (first build takes a few minutes)"
    swift build -c release --product vand >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; return 1; }
    swift build -c release --product vanadmin >>"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; return 1; }
    BIN="$(swift build -c release --show-bin-path)"
}

# Creates WORK (owned by postgres when root) and starts the cluster; sets SOCK, PGBIN, DATABASE_URL.
start_cluster() {
    PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
    [ -x "$PGBIN/initdb" ] || { echo "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2; return 1; }
    SOCK="$WORK/sock"
    mkdir -p "$SOCK" "$WORK/data"
    [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$SOCK" "$WORK/data" && chmod 0755 "$WORK"
    touch "$WORK/pg.log"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$WORK/pg.log"
    as_pg "$PGBIN/initdb" -D "$WORK/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1 \
        || { cat "$WORK/initdb.log" >&2; return 1; }
    pg_start
    export PGHOST="$SOCK" PGUSER=postgres PGDATABASE=vand
    psql -X -q -d postgres -c "CREATE DATABASE vand" >/dev/null
    export DATABASE_URL="host=$SOCK dbname=vand user=postgres"
}

pg_start() {
    as_pg "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/pg.log" -w -t 60 \
        -o "-k $SOCK -c listen_addresses='' -c max_connections=200 ${PG_EXTRA_OPTIONS:-}" start >/dev/null
}
pg_stop() { as_pg "$PGBIN/pg_ctl" -D "$WORK/data" -m "${1:-fast}" -w -t 60 stop >/dev/null; }

# Migrations, demo vans and places.
load_demo() {
    "$BIN/vanadmin" migrate >/dev/null 2>&1
    "$BIN/vanadmin" demo --as load >/dev/null
}

# Whitelists and invites NET_ID, changes the temporary password over HTTP on PORT, and
# prints a full session token.
rider_token() {
    local net_id="$1" port="$2" temp token
    "$BIN/vanadmin" whitelist add "$net_id" --name "Load $net_id" --as load >/dev/null
    temp="$("$BIN/vanadmin" riders invite "$net_id" --as load | sed -n 's/^temporary password: //p')"
    [ -n "$temp" ] || { echo "no temporary password for $net_id" >&2; return 1; }
    token="$(curl -sf --max-time 10 -X POST "http://127.0.0.1:$port/v1/session" -H 'content-type: application/json' \
        -d "{\"net_id\":\"$net_id\",\"password\":\"$temp\"}" | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')"
    curl -sf --max-time 10 -o /dev/null -X POST "http://127.0.0.1:$port/v1/password" -H "authorization: Bearer $token" \
        -H 'content-type: application/json' -d "{\"current\":\"$temp\",\"new\":\"load test password $net_id\"}"
    curl -sf --max-time 10 -X POST "http://127.0.0.1:$port/v1/session" -H 'content-type: application/json' \
        -d "{\"net_id\":\"$net_id\",\"password\":\"load test password $net_id\"}" \
        | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])'
}

# Creates driver NET_ID, chooses her password and prints a session token for her (vand on PORT).
driver_token() {
    local net_id="$1" port="$2" temp token
    temp="$("$BIN/vanadmin" drivers add "$net_id" --name "Load $net_id" --as load | sed -n 's/^temporary password: //p')"
    [ -n "$temp" ] || { echo "no temporary password for $net_id" >&2; return 1; }
    token="$(curl -sf --max-time 10 -X POST "http://127.0.0.1:$port/v1/session" -H 'content-type: application/json' \
        -d "{\"net_id\":\"$net_id\",\"password\":\"$temp\"}" | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')"
    curl -sf --max-time 10 -o /dev/null -X POST "http://127.0.0.1:$port/v1/password" -H "authorization: Bearer $token" \
        -H 'content-type: application/json' -d "{\"current\":\"$temp\",\"new\":\"load test password $net_id\"}"
    curl -sf --max-time 10 -X POST "http://127.0.0.1:$port/v1/session" -H 'content-type: application/json' \
        -d "{\"net_id\":\"$net_id\",\"password\":\"load test password $net_id\"}" \
        | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])'
}

# Starts release vand serve on PORT with extra VAR=value settings; sets VAND_PID. Log: $WORK/vand-PORT.log
start_vand() {
    local port="$1"; shift
    env VAND_PORT="$port" VAND_BCRYPT_COST=4 VAND_LOG_LEVEL="${VAND_LOG_LEVEL:-info}" "$@" \
        "$BIN/vand" serve >>"$WORK/vand-$port.log" 2>&1 &
    VAND_PID=$!
    wait_ready "$port" 30
}

# Waits up to SECONDS for GET /readyz on PORT to answer 200.
wait_ready() {
    local port="$1" deadline=$((SECONDS + $2))
    while [ $SECONDS -lt $deadline ]; do
        [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/readyz")" = 200 ] && return 0
        sleep 0.1
    done
    echo "vand on port $port not ready after $2 s" >&2; return 1
}

# Prints N local pickup times (service zone, no offset), 10 minutes apart, on weekdays
# from the day after tomorrow on (the demo hours run all day Monday to Friday).
pickup_times() {
    python3 - "$1" "${2:-10}" <<'PY'
import sys, datetime
n, step = int(sys.argv[1]), int(sys.argv[2])
day = datetime.date.today() + datetime.timedelta(days=2)
out = []
while len(out) < n:
    if day.weekday() < 5:
        t = datetime.datetime.combine(day, datetime.time(0, 5))
        while t.date() == day and len(out) < n:
            out.append(t.strftime("%Y-%m-%dT%H:%M")); t += datetime.timedelta(minutes=step)
    day += datetime.timedelta(days=1)
print("\n".join(out))
PY
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
