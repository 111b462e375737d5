export * from './schemas.js';
export * from './errors.js';
export {normaliseBaseUrl} from './endpoint.js';
export {FirezoneClient, type ApiResult, type ClientOptions, type RequestEvent} from './client.js';
export type {SchemaIssue} from './validate.js';
