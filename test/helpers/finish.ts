// A decoder's result in a test where the cache's schema getter always has the schema.
import {NEEDS_SCHEMA, type DecodedList, type ListDecoder} from '../../src/api/listcache.js';

export function finished<T>(decoder: ListDecoder<T>): DecodedList<T> | null {
  const result = decoder.finish();
  if (result === NEEDS_SCHEMA) throw new Error('the decoder asked for a schema its getter has');
  return result;
}
