#!/usr/bin/env python3
"""Latencies a person feels, measured on a running vand over real sockets (scripts/faults, part h).
The tests only check that these things happen; how soon is measured here, where a number can be
read against the machine's load.

  latency.py PORT NET_ID PASSWORD HEAD_TIMEOUT_S [RUNS]

Prints one line per figure, e.g. `stream_end_after_sign_out_s p50=0.52 max=0.98 n=10`, and
exits 1 if a stream did not end, or a half-sent head was not closed within HEAD_TIMEOUT + 1 s.
"""
import json
import socket
import statistics
import sys
import time
import urllib.request


def request(port, method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if data else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                                       headers=headers), timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def stream_end_after_sign_out(port, net_id, password):
    """Seconds from the sign-out's answer to the end of the session's open notification stream."""
    token = request(port, "POST", "/v1/session", body={"net_id": net_id, "password": password})["token"]
    stream = socket.create_connection(("127.0.0.1", port), timeout=30)
    stream.sendall((f"GET /v1/notifications/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                    "Accept: text/event-stream\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = stream.recv(4096)
        if not chunk:
            raise SystemExit("the stream closed before it opened")
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"the stream answered {head.splitlines()[0]!r}")
    request(port, "DELETE", "/v1/session", token=token)
    signed_out = time.monotonic()
    # The stream ends with `event: closed` and the chunked body's last chunk; the connection itself
    # may stay open for the next request (keep-alive), so the end of the body is what counts.
    seen = head.split(b"\r\n\r\n", 1)[1]
    try:
        while b"event: closed" not in seen and not seen.endswith(b"0\r\n\r\n"):
            chunk = stream.recv(4096)
            if not chunk:
                break
            seen += chunk
    except socket.timeout:
        return None
    finally:
        stream.close()
    return time.monotonic() - signed_out


def half_head_closed_after(port):
    """Seconds from connecting, with half a request head sent, to the server's close."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    opened = time.monotonic()
    connection.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\n")
    try:
        while connection.recv(4096):
            pass
    except (socket.timeout, ConnectionResetError):
        pass
    finally:
        connection.close()
    return time.monotonic() - opened


def main():
    port, net_id, password, head_timeout = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    ok = True
    ends = [stream_end_after_sign_out(port, net_id, password) for _ in range(runs)]
    ended = [e for e in ends if e is not None]
    if len(ended) < runs:
        ok = False
    if ended:
        print(f"stream_end_after_sign_out_s p50={statistics.median(ended):.2f} max={max(ended):.2f} n={len(ended)} of {runs}")
    heads = [half_head_closed_after(port) for _ in range(max(3, runs // 2))]
    print(f"half_head_closed_after_s min={min(heads):.2f} p50={statistics.median(heads):.2f} max={max(heads):.2f} "
          f"n={len(heads)} (VAND_HEAD_TIMEOUT {head_timeout:g} s)")
    if not all(head_timeout - 0.05 <= h <= head_timeout + 1 for h in heads):
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
