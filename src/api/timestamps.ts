// The timestamp form of the /v0 JSON, shared by the zod schemas (schemas.ts) and the zod-free fast
// guards (guards.ts), which must not import each other: the guards run before zod is loaded.

// 0.7.36 always sends 6 fractional digits and `Z`; accept any ISO-8601 UTC/offset form
// so a proxy or a later 0.7.x that trims digits does not break the console.
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
