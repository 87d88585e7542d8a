/**
 * Every deployable service and its port in distributed mode (containers use 3000 each). Apart from
 * the catalogue's service definitions: the distributed launcher only starts processes, and loading
 * every service's code for their names cost it about 0.75 s of CPU at each start (issue 44).
 */
export const SERVICE_PORTS: readonly { name: string; port: number }[] = [
  { name: 'auth', port: 3101 },
  { name: 'social', port: 3102 },
  { name: 'reviews', port: 3103 },
  { name: 'squads', port: 3104 },
  { name: 'messaging', port: 3105 },
  { name: 'notifications', port: 3106 },
];
