const scopeIds = new WeakMap<object, number>();
let nextScopeId = 0;

/**
 * A number for `scope` (an estimator, a settings object, a message's content key…), the same for
 * the same object for as long as it lives, for cache keys that must not mix scopes or contents.
 */
export function scopeId(scope: object): number {
  let id = scopeIds.get(scope);
  if (id === undefined) {
    id = nextScopeId++;
    scopeIds.set(scope, id);
  }
  return id;
}
