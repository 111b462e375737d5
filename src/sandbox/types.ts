// The sandbox's public types (contract: src/sandbox/README.md); other modules and tests code against these.

export interface SandboxOptions {
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Listen port; default 13000; 0 picks a free port. */
  port?: number;
  /** 'empty' (default for startSandbox) has only admin@sandbox.test and user@sandbox.test; 'demo' adds a small company. */
  seed?: 'demo' | 'empty';
  /** PRNG seed for demo data, allocation offsets, stats simulation and fault sampling; default 1. */
  randomSeed?: number;
  /** Scale the demo seed (benchmarks: 50000 devices, 2000 users, 1000 rules); users include the two fixed ones. */
  devices?: number;
  users?: number;
  rules?: number;
  /** WIREGUARD_IPV4_NETWORK unless --env sets it; default 10.3.2.0/24, gateway = first host. */
  ipv4Network?: string;
  /** WIREGUARD_IPV6_NETWORK unless --env sets it; default fd00::3:2:0/120, gateway = first host. */
  ipv6Network?: string;
  /** MAX_DEVICES_PER_USER unless env sets it; default 10 (0..100). */
  maxDevicesPerUser?: number;
  /** Stats simulation period; default 60; 0 disables the simulation. */
  statsIntervalSeconds?: number;
  /** Simulated server environment (0.7.36 precedence and "overridden by" errors). */
  env?: Record<string, string>;
  /** Added before every /v0 response. */
  latencyMs?: number;
  /** HS512 key (raw string bytes, like GUARDIAN_SECRET_KEY); default random per process. */
  jwtSecret?: string;
  /** Request and diagnostic log sink; default none for startSandbox, stderr for the CLI. */
  log?: (line: string) => void;
}

export interface SandboxHandle {
  /** http://host:port, no trailing slash. */
  url: string;
  /** JWT of admin@sandbox.test. */
  adminToken: string;
  /** JWT of user@sandbox.test (role unprivileged). */
  unprivilegedToken: string;
  /** Stops the server, its timers and every open connection (hung ones included). */
  close(): Promise<void>;
}
