/**
 * What a subject (`integration:<id>`, `user:<id>`, or `system`) may do now, for a feature that acts later on behalf of
 * whoever set it up (a webhook endpoint delivers what its creator may read). Provided by the module that keeps
 * accounts and roles, so the features that ask need not know it.
 */
export abstract class SubjectPermissions {
  /**
   * The permissions the subject's role grants now: none when the subject is gone, disabled or expired; `*` for the
   * service itself. At most REVOCATION_CACHE_SECONDS stale, as access tokens are.
   */
  abstract of(subject: string): Promise<readonly string[]>;
}
