// What a Firezone 0.7 API token says about itself. The token is a JWT whose `sub` claim is the id of
// the user it acts for (docs/firezone-0.7.36.md, "The bearer JWT"); the console reads it, without
// verifying anything, only to warn before an admin deletes or demotes that user and so locks the
// console out. A token that is not a JWT, or has no such claim, has no known user.

/** The `sub` claim of a JWT, or null when there is none to read. */
export function tokenSubject(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1]!.length > 8192) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (typeof claims !== 'object' || claims === null) return null;
    const sub = (claims as {sub?: unknown}).sub;
    return typeof sub === 'string' && sub !== '' ? sub : null;
  } catch {
    return null;
  }
}
