import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { hashPassword } from '../crypto/secrets.js';
import { RefreshToken } from '../entities/refresh-token.entity.js';
import { User } from '../entities/user.entity.js';
import { SubjectStatusService, subjectOf } from '../subject-status.service.js';
import { TokenAdminError, TokenAdminErrorCode } from '../token-admin.errors.js';
import { RolesService } from './roles.service.js';

export interface UserInput {
  username?: string;
  password?: string;
  role?: string;
}

/** Users of the administration interface. A password change or deletion ends their tokens at once. */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly roles: RolesService,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(): Promise<User[]> {
    return this.users.find({ order: { id: 'ASC' } });
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw new TokenAdminError(TokenAdminErrorCode.UserNotFound, `User ${id} does not exist.`);
    return user;
  }

  count(): Promise<number> {
    return this.users.count();
  }

  async create(input: Required<UserInput>): Promise<User> {
    const passwordHash = await hashPassword(input.password);
    return this.unitOfWork.run(async ({ manager }) => {
      const role = await this.roles.byName(input.role, manager);
      if (await manager.existsBy(User, { username: input.username })) {
        throw new TokenAdminError(TokenAdminErrorCode.NameTaken, `A user "${input.username}" already exists.`);
      }
      return manager.save(manager.create(User, { username: input.username, passwordHash, roleId: role.id }));
    });
  }

  async update(id: number, input: UserInput): Promise<User> {
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    const user = await this.unitOfWork.run(async ({ manager }) => {
      const user = await manager.findOneBy(User, { id });
      if (!user) throw new TokenAdminError(TokenAdminErrorCode.UserNotFound, `User ${id} does not exist.`);
      if (input.role !== undefined) user.roleId = (await this.roles.byName(input.role, manager)).id;
      if (passwordHash !== undefined) {
        user.passwordHash = passwordHash;
        user.tokenVersion += 1;
        await manager.update(RefreshToken, { userId: id }, { revokedAt: this.clock.nowMs() });
      }
      return manager.save(user);
    });
    this.status.invalidate(subjectOf('user', id));
    return user;
  }

  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      const result = await manager.delete(User, { id });
      if (!result.affected) throw new TokenAdminError(TokenAdminErrorCode.UserNotFound, `User ${id} does not exist.`);
    });
    this.status.invalidate(subjectOf('user', id));
  }
}
