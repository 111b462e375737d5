// The sandbox: a Firezone 0.7.36-compatible /v0 REST server (contract: src/sandbox/README.md), used by `npm start`
// (--demo), `fz-console sandbox`, every integration test and the benchmarks.

export type {SandboxHandle, SandboxOptions} from './types.js';
export {startSandbox} from './server.js';
export {runSandboxCli, parseSandboxArgs, SandboxUsageError, SANDBOX_HELP, type ParsedSandboxArgs} from './cli.js';
export {signJwt} from './auth/jwt.js';
export {ADMIN_EMAIL, UNPRIVILEGED_EMAIL} from './seed.js';
