-- wrk script of bench/scale.ts: each request asks the next path of a list (one per line in the file
-- given as the first argument), so consecutive requests never ask the same page; the second
-- argument, when given, is sent as the Authorization header. Each thread starts at its own place
-- in the list. At the end one JSON line: requests, seconds, errors, p50 and p99 in microseconds.
local paths = {}
local next_index = 1
local threads = {}

function setup(thread)
  thread:set("thread_number", #threads)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(paths, line) end
  end
  if args[2] and #args[2] > 0 then wrk.headers["Authorization"] = args[2] end
  -- Two threads, half the list apart: with more paths than the page cache keeps, none repeats soon.
  next_index = (thread_number * math.floor(#paths / 2)) % #paths + 1
end

function request()
  local path = paths[next_index]
  next_index = next_index % #paths + 1
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"errors":%d,"non2xx":%d,"p50":%d,"p99":%d,"bytes":%d}\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), summary.bytes))
end
