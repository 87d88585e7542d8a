import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process. In the embedded profile every service shares it, so each
 * metric carries a `service` label instead of being registered once per service.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by service, method, route and status',
  labelNames: ['service', 'method', 'route', 'status'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [metricsRegistry],
});

export const eventLag = new Histogram({
  name: 'bus_event_lag_seconds',
  help: 'Time from an event being emitted to its handling, per consumer group and type',
  labelNames: ['group', 'type'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
  registers: [metricsRegistry],
});

export const eventsHandled = new Counter({
  name: 'bus_events_handled_total',
  help: 'Events handled per consumer group, type and outcome',
  labelNames: ['group', 'type', 'outcome'],
  registers: [metricsRegistry],
});

export const socketConnections = new Gauge({
  name: 'socket_connections',
  help: 'Open socket.io connections on this gateway',
  registers: [metricsRegistry],
});
