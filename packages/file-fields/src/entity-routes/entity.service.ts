import type { Repository } from 'typeorm';
import { EntityReader, findPage, type ListSpec, type Page, type PageQuery } from '../database/list-page.js';
import type { Transaction, UnitOfWork } from '../database/unit-of-work.js';
import { DomainError } from '../errors/domain-error.js';

export class ResourceNotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'not-found';
  readonly title = 'Not found';
}

/** An entity a served type's routes answer: its primary key is a generated integer `id`. */
export interface ServedEntity {
  id: number;
}

/** Create, read, list, update and delete for one served type. Writes go through the unit of work. */
export class EntityService<T extends ServedEntity> {
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
      const entity = await this.findLocked(tx, id);
      return tx.manager.save(this.repository.merge(entity, values as T));
    });
  }

  /** Removes the entity; its file records go in the same transaction (see FileCleanupSubscriber). */
  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const entity = await this.findLocked(tx, id);
      await tx.manager.remove(entity);
    });
  }

  /**
   * The entity, its row locked until the transaction ends (PostgreSQL; SQLite runs one transaction at a time): the
   * owner row is what every change to the entity or its files locks first, so a delete and an upload wait for each
   * other instead of deadlocking, and a write that raced a delete finds the entity gone (404) instead of saving it
   * back.
   */
  private async findLocked(tx: Transaction, id: number): Promise<T> {
    const lock = tx.supportsRowLocks ? { lock: { mode: 'pessimistic_write' as const } } : {};
    const entity = await tx.manager
      .getRepository<T>(this.repository.target)
      .findOne({ where: { id } as never, ...lock });
    if (!entity) throw this.notFound(id);
    return entity;
  }

  private async find(repository: Repository<T>, id: number): Promise<T> {
    const [entity] = await EntityReader.of(repository).many('by id', [id], ([placeholder]) =>
      repository.createQueryBuilder(EntityReader.ALIAS).where(`${EntityReader.ALIAS}.id = :id`, { id: placeholder }),
    );
    if (!entity) throw this.notFound(id);
    return entity;
  }

  private notFound(id: number): ResourceNotFoundError {
    return new ResourceNotFoundError(`${this.label} ${id} does not exist.`);
  }
}
