import { Injectable, RequestMethod, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import {
  REQUIRED_PERMISSION,
  type PermissionRequirement,
  PermissionSource,
  type DeclaresPermissions,
  type PermissionUse,
} from '@file-fields/nest';
import { buildPermissionCatalog, EVERY_PERMISSION, type CatalogedPermission } from './permission-catalog.js';

/**
 * The permissions the service knows, read once at start from what it checks: the `@RequirePermission('…')` of every
 * registered route, and the permissions that providers marked `@PermissionSource()` derive from requests (the file
 * routes' `<attachment type>:read|write`). A route whose permission is derived from the request is left to its source.
 */
@Injectable()
export class PermissionCatalog implements OnApplicationBootstrap {
  private entries: readonly CatalogedPermission[] = [EVERY_PERMISSION];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  /** After every module's init: the sources (the file-field registry) know their entities by then. */
  onApplicationBootstrap(): void {
    this.entries = buildPermissionCatalog([...this.routeUses(), ...this.declaredUses()]);
  }

  list(): readonly CatalogedPermission[] {
    return this.entries;
  }

  private routeUses(): PermissionUse[] {
    return this.discovery
      .getControllers()
      .flatMap(({ metatype }) => (metatype ? this.usesOfController(metatype as Type) : []));
  }

  /** The fixed permission of each route of a controller (its own, or the controller's). */
  private usesOfController(controller: Type): PermissionUse[] {
    const prototype = controller.prototype as Record<string, () => unknown>;
    const subject = subjectOf(this.reflector.get<string | string[] | undefined>(PATH_METADATA, controller));
    return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      const method = this.reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler);
      const requirement = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(REQUIRED_PERMISSION, [
        handler,
        controller,
      ]);
      if (method === undefined || typeof requirement !== 'string') return [];
      return [{ permission: requirement, subject, method: RequestMethod[method] }];
    });
  }

  private declaredUses(): PermissionUse[] {
    return this.discovery
      .getProviders({ metadataKey: PermissionSource.KEY })
      .flatMap(({ instance }) => (instance as DeclaresPermissions).permissionUses());
  }
}

/** What a controller's routes serve, from its path: `api/audit-events` → `audit events`. */
function subjectOf(path: string | string[] | undefined): string {
  const first = Array.isArray(path) ? path[0] : path;
  const last = (first ?? '').split('/').filter(Boolean).at(-1) ?? 'routes';
  return last.replace(/[-_]/g, ' ');
}
