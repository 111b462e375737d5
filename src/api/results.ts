// What a request of the client gives back: its result, and the event the debug log gets of it.
import type {SchemaIssue} from './validate.js';

export interface RequestEvent {
  method: string;
  path: string;
  status: number | null;
  ms: number;
  bytes: number;
  /** What carried it: the console's own socket (GETs without a proxy, http-get.ts) or undici (writes, and everything through a proxy). */
  via: 'socket' | 'undici';
  error?: string;
}

export interface ApiResult<T> {
  data: T;
  /** Fields that failed validation and were replaced by neutral values (or items dropped). */
  issues: SchemaIssue[];
  /** `Location` header of a 201. */
  location?: string;
}
