export * from './schemas.js';
export * from './errors.js';
export {FirezoneClient, normaliseBaseUrl, type ApiResult, type ClientOptions, type RequestEvent} from './client.js';
export type {SchemaIssue} from './validate.js';
