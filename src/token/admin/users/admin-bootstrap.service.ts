import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SYSTEM_PRINCIPAL } from '../../../common/auth/principal.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { UsersService } from './users.service.js';
import { randomToken } from '../../crypto/secrets.js';

/**
 * On the first start (no user at all) creates the administrator from ADMIN_USERNAME and ADMIN_PASSWORD; without
 * ADMIN_PASSWORD a random password is generated and logged once.
 */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminBootstrap');

  constructor(
    private readonly users: UsersService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.users.count()) > 0) return;
    const { adminUsername: username, adminPassword } = this.config;
    const password = adminPassword ?? randomToken(18);
    await this.users.create({ username, password, role: 'admin' }, SYSTEM_PRINCIPAL).catch((error: unknown) => {
      // Another instance starting at the same moment may have created it.
      this.logger.warn({ err: error }, 'Could not create the first administrator');
    });
    if (!adminPassword) {
      this.logger.warn(
        `Created the administrator "${username}" with the generated password: ${password} (shown once; change it)`,
      );
    } else {
      this.logger.log(`Created the administrator "${username}" from ADMIN_PASSWORD`);
    }
  }
}
