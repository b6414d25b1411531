import type { Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import type { UnitOfWork } from '../database/unit-of-work.js';
import { findPage, type ListSpec, type Page, type PageQuery } from '../database/list-page.js';

export class ResourceNotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'not-found';
  readonly title = 'Not found';
}

export interface CatalogEntity {
  id: number;
}

/** Create, read, list, update and delete for one example entity type. Writes go through the unit of work. */
export class CatalogService<T extends CatalogEntity> {
  constructor(
    private readonly repository: Repository<T>,
    private readonly unitOfWork: UnitOfWork,
    private readonly label: string,
    private readonly listSpec: ListSpec<T>,
  ) {}

  /** A page of the entities matching the query; their file fields are filled by the file-field resolution. */
  list(query: PageQuery): Promise<Page<T>> {
    return findPage(this.repository, query, this.listSpec);
  }

  get(id: number): Promise<T> {
    return this.find(this.repository, id);
  }

  create(values: object): Promise<T> {
    return this.unitOfWork.run((tx) => tx.manager.save(this.repository.create(values as T)));
  }

  update(id: number, values: object): Promise<T> {
    return this.unitOfWork.run(async (tx) => {
      const entity = await this.find(tx.manager.getRepository<T>(this.repository.target), id);
      return tx.manager.save(this.repository.merge(entity, values as T));
    });
  }

  /** Removes the entity; its file records go in the same transaction (see FileCleanupSubscriber). */
  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const entity = await this.find(tx.manager.getRepository<T>(this.repository.target), id);
      await tx.manager.remove(entity);
    });
  }

  private async find(repository: Repository<T>, id: number): Promise<T> {
    const entity = await repository.findOneBy({ id } as never);
    if (!entity) throw this.notFound(id);
    return entity;
  }

  private notFound(id: number): ResourceNotFoundError {
    return new ResourceNotFoundError(`${this.label} ${id} does not exist.`);
  }
}
