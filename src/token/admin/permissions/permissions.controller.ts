import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, ApiProblems } from '@file-fields/nest';
import { PermissionDto } from '../admin-views.dto.js';
import { PermissionCatalog } from '../../credentials/permission-catalog.service.js';

@ApiTags('roles')
@Controller('api/permissions')
export class PermissionsController {
  constructor(private readonly catalog: PermissionCatalog) {}

  @Get()
  @Authenticated()
  @ApiOkResponse({ type: [PermissionDto] })
  @ApiOperation({
    operationId: 'listPermissions',
    summary: 'List the permissions a role may hold: `*` and each one the service checks',
    description:
      'Read from the routes and the attachable entity types when the service starts, sorted by name after `*`. ' +
      'Any valid token may read it.',
  })
  @ApiProblems(400)
  list(): PermissionDto[] {
    return this.catalog.list().map((entry) => PermissionDto.from(entry));
  }
}
