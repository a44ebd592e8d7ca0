import type { Metric, Registry } from "prom-client";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

type Labels = Readonly<{ method: string; route: string; status: string }>;

/** One method, route template and status: how many answers, their seconds in all, and how many in each bucket. */
class RequestSeries {
  count = 0;
  seconds = 0;
  readonly inBucket: number[] = BUCKETS.map(() => 0);

  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    this.count += 1;
    this.seconds += seconds;
    for (let i = 0; i < BUCKETS.length; i++)
      if (seconds <= BUCKETS[i]) {
        this.inBucket[i] += 1;
        return;
      }
  }
}

/**
 * `photodrop_http_requests_total` and `photodrop_http_request_duration_seconds`, kept as one series
 * per label set and found through maps of the labels themselves. prom-client's counter and
 * histogram build and check a key of the labels on every observation: a tenth of the CPU of a
 * thumbnail answered from memory.
 */
export class HttpRequestMetrics {
  private readonly byRoute = new Map<string, Map<string, Map<number | "aborted", RequestSeries>>>();

  /** Registered in `registry` at once, as prom-client's own metrics are through `registers`. */
  constructor(registry: Registry) {
    this.register(
      registry,
      "counter",
      "photodrop_http_requests_total",
      "HTTP requests answered, by method, route template and status",
      () => [...this.all()].map((s) => ({ labels: s.labels, value: s.count })),
    );
    const name = "photodrop_http_request_duration_seconds";
    this.register(
      registry,
      "histogram",
      name,
      "Time from request to the end of the answer, by method, route template and status",
      () =>
        [...this.all()].flatMap((s) => {
          let below = 0;
          const buckets = BUCKETS.map((bound, i) => {
            below += s.inBucket[i];
            return { metricName: `${name}_bucket`, labels: { ...s.labels, le: bound }, value: below };
          });
          return [
            ...buckets,
            { metricName: `${name}_bucket`, labels: { ...s.labels, le: "+Inf" }, value: s.count },
            { metricName: `${name}_sum`, labels: s.labels, value: s.seconds },
            { metricName: `${name}_count`, labels: s.labels, value: s.count },
          ];
        }),
    );
  }

  seriesOf(method: string, route: string, status: number | "aborted"): RequestSeries {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = new RequestSeries({ method, route, status: String(status) })));
    return series;
  }

  private *all(): Iterable<RequestSeries> {
    for (const byMethod of this.byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }

  /** A metric as prom-client's registry reads one (`get()`, as its own metrics answer it). */
  private register(
    registry: Registry,
    type: "counter" | "histogram",
    name: string,
    help: string,
    values: () => Array<{ labels: object; value: number; metricName?: string }>,
  ): void {
    const metric = {
      name,
      help,
      type,
      aggregator: "sum",
      get: () => Promise.resolve({ name, help, type, aggregator: "sum", values: values() }),
      reset: () => this.byRoute.clear(),
    };
    // The registry reads any metric through these members; its type lists only prom-client's own classes.
    registry.registerMetric(metric as unknown as Metric);
  }
}
