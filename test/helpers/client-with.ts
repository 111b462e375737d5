// A client with some of its methods replaced (a gate in front of a list, a recorder of bodies); every
// other method is the real client's, bound to it.
import type {ConsoleClient} from '../../src/ui/App.js';

export function clientWith<C extends object>(client: C, overrides: Partial<Record<keyof ConsoleClient, unknown>>): ConsoleClient {
  return new Proxy(client, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof ConsoleClient];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as ConsoleClient;
}
