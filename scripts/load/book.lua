-- wrk script: POST /v1/rides with a bearer token, each request a pickup time drawn at random
-- from the file named by $BENCH_TIMES (one local time per line, a minute apart over ~8 service
-- days), like pgbench's random(); no Idempotency-Key.
local token = os.getenv("BENCH_TOKEN")
local times_file = os.getenv("BENCH_TIMES")
local counter = 0
local threads = {}

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  times = {}
  for line in io.lines(times_file) do times[#times + 1] = line end
  -- $BENCH_TOKENS: a file of riders' tokens, one drawn per request (else $BENCH_TOKEN for all).
  tokens = {}
  local tokens_file = os.getenv("BENCH_TOKENS")
  if tokens_file then for line in io.lines(tokens_file) do tokens[#tokens + 1] = line end end
  math.randomseed(os.time() + tid * 7919)
  wrk.method = "POST"
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["Content-Type"] = "application/json"
  statuses = {}
end

function request()
  local t = times[math.random(#times)]

  local headers = nil
  if #tokens > 0 then
    headers = { ["Authorization"] = "Bearer " .. tokens[math.random(#tokens)], ["Content-Type"] = "application/json" }
  end
  return wrk.format(nil, "/v1/rides", headers,
    '{"pickup":"SCL","dropoff":"Davenport","pickup_at":"' .. t .. '"}')
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for k, v in pairs(s) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do parts[#parts + 1] = k .. "=" .. v end
  io.write(string.format("RESULT rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f requests=%d errors=%d statuses=%s\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    table.concat(parts, ",")))
end
