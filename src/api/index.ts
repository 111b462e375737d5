// Types only: the zod schemas load when the client needs them (client.ts), not with the console.
export type * from './schemas.js';
export * from './errors.js';
export {normaliseBaseUrl} from './endpoint.js';
export {toOidcWrite, toSamlWrite} from './provider-writes.js';
export {FirezoneClient, type ApiResult, type ClientOptions, type RequestEvent} from './client.js';
export type {SchemaIssue} from './validate.js';
