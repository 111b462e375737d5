// Outcomes that abort a /v0 request, mirroring how 0.7.36 ends one.

/**
 * An unhandled exception in 0.7.36 (FunctionClauseError, MatchError, Ecto.CastError, a constraint
 * Ecto does not map, …). Rendering its error page raises again, so Cowboy answers a 500 with an
 * empty body (docs/firezone-0.7.36.md, "Empty-body 500s"). `reason` only feeds the sandbox's diagnostic log.
 */
export class Crash extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Crash';
  }
}

/** FallbackController `{:error, :not_found}` → 404 `{"error":"not_found"}`. */
export class NotFound extends Error {
  constructor() {
    super('not_found');
    this.name = 'NotFound';
  }
}

/** FallbackController `{:error, {:unauthorized, _}}` → 401 `{"error":"Unauthorized"}`. */
export class Forbidden extends Error {
  constructor() {
    super('Unauthorized');
    this.name = 'Forbidden';
  }
}

/** An invalid changeset → 422 `{"errors": …}` (already in wire shape). */
export class Invalid extends Error {
  constructor(readonly errors: Record<string, unknown>) {
    super('invalid');
    this.name = 'Invalid';
  }
}
