-- wrk script: GET with a bearer token ($BENCH_TOKEN); prints one RESULT line.
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_TOKEN") or "")
function done(summary, latency, requests)
  io.write(string.format("RESULT rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f requests=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
