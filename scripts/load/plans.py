#!/usr/bin/env python3
"""Helpers for the archive phase of scripts/bench-load.

plans.py summary LOGFILE   Reads auto_explain's JSON plans (log_analyze, log_buffers,
                           log_nested_statements) from a PostgreSQL log and prints one
                           markdown row per distinct statement: how often it ran, the
                           scans it used, the most shared buffers it touched and its
                           slowest run. Statements that touch no table are left out.
plans.py receiver PORT     A webhook receiver on 127.0.0.1:PORT answering 204 to every POST.
"""
import json
import re
import sys

# Tables that grow with the archive: a sequential scan of one of these is a finding.
GROWING = {"rides", "ride_events", "deliveries", "notifications"}


def plans(text):
    lines = text.split("\n")
    for index, line in enumerate(lines):
        match = re.search(r"duration: ([0-9.]+) ms  plan:$", line)
        if not match:
            continue
        # The JSON follows on tab-indented continuation lines.
        body = []
        for following in lines[index + 1:]:
            if not following.startswith("\t"):
                break
            body.append(following[1:])
        try:
            yield float(match.group(1)), json.loads("\n".join(body))
        except ValueError:
            continue


def nodes(node):
    yield node
    for child in node.get("Plans", []):
        yield from nodes(child)


def scan_name(node):
    kind = node["Node Type"]
    if "Index Name" in node:
        return f"{kind} {node['Index Name']}"
    if "Relation Name" in node and kind != "ModifyTable":
        return f"{kind} {node['Relation Name']}"
    if kind == "ModifyTable":
        return f"{node.get('Operation', 'Modify')} {node.get('Relation Name', '')}".strip()
    return None


def label(query):
    """The statement's start and, for a long one, the start of its WHERE (to tell apart
    statements that share a select list)."""
    if len(query) <= 100:
        return query
    where = query.find(" WHERE ", 50)
    if where < 0:
        return query[:97] + "…"
    return query[:45] + " … " + query[where + 1:where + 56] + "…"


def summary(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    rows = {}
    for duration, entry in plans(text):
        query = " ".join(entry.get("Query Text", "").split())
        top = entry["Plan"]
        all_nodes = list(nodes(top))
        scans = []
        for node in all_nodes:
            name = scan_name(node)
            if name and name not in scans:
                scans.append(name)
        if not scans:
            continue  # no table touched (advisory locks, SAVEPOINT, SELECT 1)
        read = top.get("Shared Read Blocks", 0)
        buffers = top.get("Shared Hit Blocks", 0) + read
        seq = [n["Relation Name"] for n in all_nodes if n["Node Type"] == "Seq Scan" and n.get("Relation Name") in GROWING]
        row = rows.setdefault(query, {"runs": 0, "buffers": 0, "read": 0, "ms": 0.0, "scans": scans, "seq": set()})
        row["runs"] += 1
        row["buffers"] = max(row["buffers"], buffers)
        row["read"] = max(row["read"], read)
        row["ms"] = max(row["ms"], duration)
        row["seq"].update(seq)
    print("| statement | runs | scans | max shared buffers (of them not in shared_buffers) | max ms |")
    print("| --- | ---: | --- | ---: | ---: |")
    for query, row in rows.items():
        short = label(query)
        flag = " **SEQ SCAN " + ", ".join(sorted(row["seq"])) + "**" if row["seq"] else ""
        print(f"| `{short.replace('|', '/')}` | {row['runs']} | {'; '.join(row['scans'])}{flag} | {row['buffers']} ({row['read']}) | {row['ms']:.3f} |")
    growing = sorted({t for row in rows.values() for t in row["seq"]})
    print()
    print(f"{len(rows)} statements; sequential scans of growing tables: {', '.join(growing) if growing else 'none'}; "
          f"most shared buffers in one statement: {max((r['buffers'] for r in rows.values()), default=0)}")


def receiver(port):
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "receiver":
        receiver(int(sys.argv[2]))
    else:
        sys.exit(__doc__)
