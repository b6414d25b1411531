import { Controller, Delete, Get, Injectable, Module, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import {
  Authenticated,
  Public,
  RequirePermission,
  PermissionSource,
  type DeclaresPermissions,
} from '@file-fields/nest';
import { buildPermissionCatalog, EVERY_PERMISSION } from './permission-catalog.js';
import { PermissionCatalog } from './permission-catalog.service.js';

describe('buildPermissionCatalog', () => {
  it('lists each permission once, * first and the rest by name, split into resource and access', () => {
    const catalog = buildPermissionCatalog([
      { permission: 'role:write', subject: 'roles', method: 'POST' },
      { permission: 'article:read', subject: 'articles', method: 'GET' },
      { permission: 'role:write', subject: 'roles', method: 'DELETE' },
      { permission: 'article:read', subject: 'articles', method: 'GET' },
      { permission: '*', subject: 'everything' },
    ]);
    expect(catalog.map((entry) => entry.permission)).toEqual(['*', 'article:read', 'role:write']);
    expect(catalog[0]).toEqual(EVERY_PERMISSION);
    expect(catalog[1]).toEqual({
      permission: 'article:read',
      resource: 'article',
      access: 'read',
      description: 'Read articles',
    });
    expect(catalog[2]).toMatchObject({ resource: 'role', access: 'write' });
  });

  it('offers only * when the service checks nothing', () => {
    expect(buildPermissionCatalog([])).toEqual([EVERY_PERMISSION]);
  });

  it('names every subject a permission opens, and whether a write permission also guards reads', () => {
    const [, read, write, webhooks] = buildPermissionCatalog([
      { permission: 'product:read', subject: 'products', method: 'GET' },
      { permission: 'product:write', subject: 'products', method: 'PATCH' },
      { permission: 'product:read', subject: 'product files' },
      { permission: 'product:write', subject: 'product files' },
      { permission: 'webhook:write', subject: 'webhooks', method: 'GET' },
      { permission: 'webhook:write', subject: 'webhooks', method: 'POST' },
    ]);
    expect(read.description).toBe('Read products and product files');
    expect(write.description).toBe('Create, change and delete products and product files');
    expect(webhooks.description).toBe('Read and manage webhooks');
  });

  it('orders by code unit, so the order does not depend on the locale', () => {
    const names = buildPermissionCatalog([
      { permission: 'b_x:read', subject: 'x' },
      { permission: 'b-x:read', subject: 'x' },
      { permission: 'bx:read', subject: 'x' },
    ]).map((entry) => entry.permission);
    expect(names).toEqual(['*', 'b-x:read', 'b_x:read', 'bx:read']);
  });

  it('refuses a checked permission that no role could hold', () => {
    expect(() => buildPermissionCatalog([{ permission: 'Product:read', subject: 'products' }])).toThrow(
      '"Product:read" (products) is not a permission a role can hold',
    );
  });
});

describe('PermissionCatalog', () => {
  @Controller('api/gadget-parts')
  class GadgetPartsController {
    @Get()
    @RequirePermission('gadget:read')
    list(): void {}

    @Post()
    @RequirePermission('gadget:write')
    create(): void {}

    @Post(':type')
    @RequirePermission((request: Request) => `${String(request.params.type)}:write`)
    derived(): void {}

    @Get('mine')
    @Authenticated()
    mine(): void {}

    @Get('open')
    @Public()
    open(): void {}
  }

  @Controller('hooks')
  @RequirePermission('hook:write')
  class HooksController {
    @Get()
    list(): void {}

    @Delete(':id')
    remove(): void {}
  }

  @Injectable()
  @PermissionSource()
  class AttachmentPermissions implements DeclaresPermissions {
    permissionUses() {
      return [
        { permission: 'gadget:read', subject: 'gadget files' },
        { permission: 'widget:write', subject: 'widget files' },
      ];
    }
  }

  /** Unmarked: whatever it would declare is not asked. */
  @Injectable()
  class Unmarked implements DeclaresPermissions {
    permissionUses() {
      return [{ permission: 'secret:read', subject: 'secrets' }];
    }
  }

  @Module({ providers: [AttachmentPermissions, Unmarked] })
  class SourceModule {}

  @Module({
    imports: [DiscoveryModule, SourceModule],
    controllers: [GadgetPartsController, HooksController],
    providers: [PermissionCatalog],
  })
  class CatalogModule {}

  it('reads the fixed permissions of every route and those the marked sources declare, once at start', async () => {
    const app = await Test.createTestingModule({ imports: [CatalogModule] }).compile();
    const catalog = app.get(PermissionCatalog);
    expect(catalog.list()).toEqual([EVERY_PERMISSION]);
    await app.init();
    expect(catalog.list()).toEqual([
      EVERY_PERMISSION,
      {
        permission: 'gadget:read',
        resource: 'gadget',
        access: 'read',
        description: 'Read gadget parts and gadget files',
      },
      {
        permission: 'gadget:write',
        resource: 'gadget',
        access: 'write',
        description: 'Create, change and delete gadget parts',
      },
      { permission: 'hook:write', resource: 'hook', access: 'write', description: 'Read and manage hooks' },
      {
        permission: 'widget:write',
        resource: 'widget',
        access: 'write',
        description: 'Create, change and delete widget files',
      },
    ]);
    await app.close();
  });
});
