import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HttpRequestMetrics } from "./http-request-metrics";

async function exposition(observe: (metrics: HttpRequestMetrics) => void) {
  const registry = new Registry();
  observe(new HttpRequestMetrics(registry));
  const text = await registry.metrics();
  /** A sample's value by its line's name and labels, as written (the parser folds a histogram's label sets into one). */
  const sample = (nameAndLabels: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${nameAndLabels} `));
    return line === undefined ? undefined : Number(line.slice(nameAndLabels.length + 1));
  };
  return { families: parsePrometheusTextFormat(text), sample };
}

describe("HTTP request metrics", () => {
  it("counts each label set and puts each duration in the first bucket it does not exceed, cumulatively", async () => {
    const { families, sample } = await exposition((m) => {
      for (const seconds of [0.005, 0.0051, 0.3, 200]) m.seriesOf("GET", "/d/:token/t/:n", 200).observe(seconds);
      m.seriesOf("GET", "/d/:token/t/:n", 304).observe(0);
      m.seriesOf("POST", "/api/clients", "aborted").observe(1);
    });
    const [requests, durations] = families;
    expect(requests).toMatchObject({ name: "photodrop_http_requests_total", type: "COUNTER" });
    expect(requests.metrics).toEqual([
      { labels: { method: "GET", route: "/d/:token/t/:n", status: "200" }, value: "4" },
      { labels: { method: "GET", route: "/d/:token/t/:n", status: "304" }, value: "1" },
      { labels: { method: "POST", route: "/api/clients", status: "aborted" }, value: "1" },
    ]);
    expect(durations).toMatchObject({ name: "photodrop_http_request_duration_seconds", type: "HISTOGRAM" });
    const ok = 'method="GET",route="/d/:token/t/:n",status="200"';
    const bucket = (le: string) => sample(`photodrop_http_request_duration_seconds_bucket{${ok},le="${le}"}`);
    expect(["0.005", "0.01", "0.25", "0.5", "120", "+Inf"].map(bucket)).toEqual([1, 2, 2, 3, 3, 4]);
    expect(sample(`photodrop_http_request_duration_seconds_count{${ok}}`)).toBe(4);
    expect(sample(`photodrop_http_request_duration_seconds_sum{${ok}}`)).toBeCloseTo(200.3101, 9);
    const aborted = 'method="POST",route="/api/clients",status="aborted"';
    expect(sample(`photodrop_http_request_duration_seconds_bucket{${aborted},le="0.5"}`)).toBe(0);
    expect(sample(`photodrop_http_request_duration_seconds_bucket{${aborted},le="1"}`)).toBe(1);
  });

  it("starts again from nothing when the registry is reset", async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics(registry);
    metrics.seriesOf("GET", "/healthz", 200).observe(0.001);
    registry.resetMetrics();
    metrics.seriesOf("GET", "/healthz", 200).observe(0.001);
    expect(await registry.metrics()).toContain(
      'photodrop_http_requests_total{method="GET",route="/healthz",status="200"} 1',
    );
  });
});
