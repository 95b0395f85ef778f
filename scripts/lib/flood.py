#!/usr/bin/env python3
"""Connection floods for scripts/faults (part g), standard library only.

  flood.py hold PORT TOKEN HALF STREAMS WORKDIR
      Opens HALF connections that each send half a request head and never finish it, and
      STREAMS notification streams with TOKEN; keeps HALF half-open connections open (a
      connection vand closes is opened again) until WORKDIR/flood.stop exists. Writes
      WORKDIR/flood.ready once all are open, and WORKDIR/flood.stats (JSON) at the end.
  flood.py riders PORT TOKEN TIMESFILE COUNT CONCURRENCY PAUSE OUT
      COUNT bookings (POST /v1/rides, the times in TIMESFILE) and COUNT reads (GET /v1/rides),
      CONCURRENCY at a time, each on its own connection, a worker pausing PAUSE seconds after
      each (so the load spans the flood's churn); one line per answer in OUT:
      "<kind> <status> <seconds> <ride id or ->".
  flood.py percentiles OUT
      Prints "n=… p50=… p99=… max=… statuses=…" of OUT's answers.
"""
import concurrent.futures, http.client, json, os, resource, selectors, socket, sys, time

HALF_HEAD = b"GET /readyz HTTP/1.1\r\nHost: x\r\n"


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def hold(port, token, half, streams, work):
    raise_file_limit()
    sel = selectors.DefaultSelector()
    stats = {"half_opened": 0, "half_closed_by_vand": 0, "connect_failed": 0,
             "streams_opened": 0, "streams_answered": 0, "streams_answered_200": 0, "streams_closed_by_vand": 0, "stream_statuses": {}}

    def connect(payload, kind):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(payload)
        except OSError:
            stats["connect_failed"] += 1
            s.close()
            return False
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, {"kind": kind, "seen": b""})
        return True

    stream_head = ("GET /v1/notifications/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                   "Authorization: Bearer %s\r\n\r\n" % token).encode()
    for _ in range(half):
        stats["half_opened"] += connect(HALF_HEAD, "half")
    for _ in range(streams):
        stats["streams_opened"] += connect(stream_head, "stream")
    open(os.path.join(work, "flood.ready"), "w").write("ready\n")
    stop = os.path.join(work, "flood.stop")
    progress, last = os.path.join(work, "flood.progress"), 0.0
    while not os.path.exists(stop):
        if time.monotonic() - last > 0.5:
            last = time.monotonic()
            json.dump(stats, open(progress + ".tmp", "w"))
            os.replace(progress + ".tmp", progress)
        reopen = 0
        for key, _ in sel.select(timeout=0.2):
            data = key.data
            try:
                chunk = key.fileobj.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""
            if data["kind"] == "stream" and len(data["seen"]) < 12 and chunk:
                data["seen"] += chunk
                if len(data["seen"]) >= 12:
                    status = data["seen"][9:12].decode(errors="replace")
                    stats["stream_statuses"][status] = stats["stream_statuses"].get(status, 0) + 1
                    stats["streams_answered_200"] += status == "200"
                    stats["streams_answered"] += 1
            if chunk:
                continue
            sel.unregister(key.fileobj)
            key.fileobj.close()
            if data["kind"] == "half":
                stats["half_closed_by_vand"] += 1
                reopen += 1
            else:
                stats["streams_closed_by_vand"] += 1
        for _ in range(reopen):
            stats["half_opened"] += connect(HALF_HEAD, "half")
    stats["open_at_end"] = len(sel.get_map())
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    json.dump(stats, open(os.path.join(work, "flood.stats"), "w"))


def riders(port, token, times_file, count, concurrency, pause, out):
    times = [line.strip() for line in open(times_file) if line.strip()][:count]
    headers = {"authorization": "Bearer " + token, "content-type": "application/json"}

    def one(kind, body):
        start = time.monotonic()
        ride = "-"
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            if kind == "book":
                connection.request("POST", "/v1/rides", body=json.dumps(body), headers=headers)
            else:
                connection.request("GET", "/v1/rides?scope=upcoming", headers=headers)
            response = connection.getresponse()
            payload = response.read()
            status = response.status
            if kind == "book" and status == 201:
                ride = (response.getheader("location") or "-").rsplit("/", 1)[-1]
            connection.close()
        except Exception:
            status = 0
        elapsed = time.monotonic() - start
        time.sleep(pause)
        return "%s %d %.4f %s" % (kind, status, elapsed, ride)

    jobs = []
    for t in times:
        jobs.append(("book", {"pickup": "SCL", "dropoff": "Davenport", "pickup_at": t}))
        jobs.append(("read", None))
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        lines = list(pool.map(lambda job: one(*job), jobs))
    open(out, "w").write("\n".join(lines) + "\n")


def percentiles(out):
    rows = [line.split() for line in open(out) if line.strip()]
    seconds = sorted(float(r[2]) for r in rows)
    statuses = {}
    for r in rows:
        statuses[r[0] + ":" + r[1]] = statuses.get(r[0] + ":" + r[1], 0) + 1

    def pick(q):
        return seconds[min(len(seconds) - 1, int(q * len(seconds)))]
    print("n=%d p50=%.3f p99=%.3f max=%.3f statuses=%s" % (
        len(rows), pick(0.5), pick(0.99), seconds[-1], ",".join("%s=%d" % kv for kv in sorted(statuses.items()))))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "hold":
        hold(int(args[0]), args[1], int(args[2]), int(args[3]), args[4])
    elif command == "riders":
        riders(int(args[0]), args[1], args[2], int(args[3]), int(args[4]), float(args[5]), args[6])
    elif command == "percentiles":
        percentiles(args[0])
    else:
        sys.exit("unknown command " + command)
