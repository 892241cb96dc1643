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
  const labels = (call: CallLabels) => ({
    grpc_service: call.service,
    grpc_method: call.method,
    grpc_type: call.type,
  });
  return {
    started(call) {
      started.inc(labels(call));
    },
    handled(call, code, elapsed) {
      handled.inc({ ...labels(call), grpc_code: code });
      seconds.observe(labels(call), elapsed);
    },
  };
}
