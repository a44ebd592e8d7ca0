-- wrk script of bench/scale.ts: each request asks the next path of a list (one per line in the file
-- given as the first argument), so consecutive requests never ask the same page; the second
-- argument, when given, is sent as the Authorization header; the third is wrk's thread count.
-- Each thread cycles through its own part of the list. At the end one JSON line: requests,
-- seconds, errors, p50 and p99 in microseconds.
local paths = {}
local next_index = 1
local first, last = 1, 1
local threads_started = 0

function setup(thread)
  thread:set("thread_number", threads_started)
  threads_started = threads_started + 1
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(paths, line) end
  end
  if args[2] and #args[2] > 0 then wrk.headers["Authorization"] = args[2] end
  -- Each thread its own part, in a cycle: a path comes back only after every other path of that
  -- part and whatever the other threads asked meanwhile, more than the page cache keeps. (Threads
  -- half a list apart in one cycle drifted together and then answered each other from the cache.)
  local thread_count = tonumber(args[3])
  local share = math.floor(#paths / thread_count)
  if share == 0 then
    first, last = 1, #paths
  else
    first = thread_number * share + 1
    last = thread_number == thread_count - 1 and #paths or first + share - 1
  end
  next_index = first
end

function request()
  local path = paths[next_index]
  next_index = next_index == last and first or next_index + 1
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"errors":%d,"non2xx":%d,"p50":%d,"p99":%d,"bytes":%d}\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), summary.bytes))
end
