import { DiscoveryService } from '@nestjs/core';

/** One place where the service checks a permission, and what the permission opens there. */
export interface PermissionUse {
  /** `<resource>:<read|write>`. */
  permission: string;
  /** What it opens, as a plural noun: `products`, `product files`, `audit events`. */
  subject: string;
  /** The HTTP method of a route that checks it, when one route is meant. */
  method?: string;
}

/**
 * A provider that checks permissions no `@RequirePermission('…')` names, because it derives them from the request or
 * from a record (the file routes: `<attachment type>:read|write`). It lists them, so that the permission catalog
 * (`GET /api/permissions`) offers them too. Mark it with {@link PermissionSource}.
 */
export interface DeclaresPermissions {
  permissionUses(): PermissionUse[];
}

/**
 * Marks a provider that implements {@link DeclaresPermissions}: the permission catalog discovers it at start, without
 * the module that owns the catalog importing the module that declares the permissions.
 */
export const PermissionSource = DiscoveryService.createDecorator<void>();
