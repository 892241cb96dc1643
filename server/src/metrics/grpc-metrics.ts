import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallLabels, CallMetrics } from '../transport/metrics-interceptor.js';

/** go-grpc-prometheus's handling-time buckets (Prometheus' default buckets), in seconds. */
const HANDLING_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The gRPC ecosystem's server metrics, by the names dashboards for go-grpc-prometheus expect:
 * every label a fixed list (the store's services and methods, four types, seventeen codes).
 */
export function grpcServerMetrics(registry: Registry): CallMetrics {
  const started = new Counter({
    name: 'grpc_server_started_total',
    help: 'Total number of RPCs started on the server.',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_type'] as const,
    registers: [registry],
  });
  const handled = new Counter({
    name: 'grpc_server_handled_total',
    help: 'Total number of RPCs completed on the server, regardless of success or failure.',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_type', 'grpc_code'] as const,
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_type'] as const,
    buckets: HANDLING_BUCKETS,
    registers: [registry],
  });
  // Each method's series looked up once: prom-client hashes a label object on every inc and
  // observe otherwise, a cost every call paid. Bounded: interceptors see registered methods only.
  type MethodSeries = {
    started: Counter.Internal;
    seconds: Histogram.Internal<'grpc_service' | 'grpc_method' | 'grpc_type'>;
    handled: Map<string, Counter.Internal>;
    labels: { grpc_service: string; grpc_method: string; grpc_type: string };
  };
  const byMethod = new Map<string, MethodSeries>();
  const seriesOf = (call: CallLabels): MethodSeries => {
    const key = `${call.service}/${call.method}/${call.type}`;
    let series = byMethod.get(key);
    if (!series) {
      const labels = { grpc_service: call.service, grpc_method: call.method, grpc_type: call.type };
      series = {
        started: started.labels(labels),
        seconds: seconds.labels(labels),
        handled: new Map(),
        labels,
      };
      byMethod.set(key, series);
    }
    return series;
  };
  return {
    started(call) {
      seriesOf(call).started.inc();
    },
    handled(call, code, elapsed) {
      const series = seriesOf(call);
      let ended = series.handled.get(code);
      if (!ended) {
        ended = handled.labels({ ...series.labels, grpc_code: code });
        series.handled.set(code, ended);
      }
      ended.inc();
      series.seconds.observe(elapsed);
    },
  };
}
