/**
 * Every deployable service's name and its port in the distributed profile (containers use 3000
 * each), without its code: the distributed launcher only spawns processes, and importing the
 * service definitions made it hold every service's modules (126 MB of RSS for a supervisor).
 * service-catalogue.ts pairs each with its definition (infra/test/system/service-catalogue.system.spec.ts checks they agree).
 */
export const SERVICE_PORTS = [
  { name: 'auth', port: 3101 },
  { name: 'social', port: 3102 },
  { name: 'reviews', port: 3103 },
  { name: 'squads', port: 3104 },
  { name: 'messaging', port: 3105 },
  { name: 'notifications', port: 3106 },
] as const;

export type ServiceName = (typeof SERVICE_PORTS)[number]['name'];
