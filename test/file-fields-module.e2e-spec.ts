import 'reflect-metadata';
import { Body, Controller, Get, Injectable, Module, Param, Post, type NestMiddleware } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { join } from 'node:path';
import request from 'supertest';
import {
  Column,
  Entity,
  PrimaryGeneratedColumn,
  Repository,
  Table,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
// Only the framework's public entry points: nothing of this service's own modules.
import {
  AttachmentType,
  FileField,
  FileFieldsModule,
  fileFieldsSchema,
  type FileRecordDto,
  LocalDiskStorage,
  DomainErrorFilter,
} from '@file-fields/nest';
import { PDF, PNG } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-app.js';

/** Another application's entity: a note with one attachment and ordered pages. */
@Entity({ name: 'notes' })
@AttachmentType('note')
class Note {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  title!: string;

  @FileField()
  attachment?: FileRecordDto | null;

  @FileField({ multi: true, accept: ['image/*'] })
  pages?: FileRecordDto[];
}

class Notes1700000000000 implements MigrationInterface {
  name = 'Notes1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'notes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'title', type: 'varchar', length: '100' },
        ],
      }),
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notes');
  }
}

@Controller('notes')
class NotesController {
  constructor(@InjectRepository(Note) private readonly notes: Repository<Note>) {}

  @Post()
  create(@Body() body: { title: string }): Promise<Note> {
    return this.notes.save(this.notes.create({ title: body.title }));
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<Note | null> {
    return this.notes.findOneBy({ id: Number(id) });
  }
}

/** The scopes of the callers the host knows, by the name they send in `X-Caller`. */
const CALLERS: Record<string, string[]> = { editor: ['note:read', 'note:write'], reader: ['note:read'] };

/**
 * The host's own authentication: an editor of notes unless `X-Caller` names another caller, or `nobody` (no caller).
 * The host has no guard of its own.
 */
@Injectable()
class FakeAuthentication implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const name = req.header('x-caller') ?? 'editor';
    const scopes = CALLERS[name];
    if (scopes) req.user = { subject: `user:${name}`, clientId: 'notes-app', scopes };
    next();
  }
}

function notesModule(database: TestDatabase) {
  const env = database.env;
  const postgres = env.DATABASE_URL !== undefined;
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        ...(postgres
          ? { type: 'postgres', url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA }
          : { type: 'better-sqlite3', database: join(database.dataDir, 'notes.sqlite') }),
        entities: [Note, ...fileFieldsSchema.entities],
        migrations: [Notes1700000000000, ...(fileFieldsSchema.migrations ?? [])],
        migrationsRun: true,
      }),
      TypeOrmModule.forFeature([Note]),
      FileFieldsModule.forRoot({ storage: new LocalDiskStorage(join(database.dataDir, 'files')) }),
    ],
    controllers: [NotesController],
  })
  class NotesAppModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      consumer.apply(FakeAuthentication).forRoutes('*path');
    }
  }
  return NotesAppModule;
}

async function startNotesApp(database: TestDatabase): Promise<INestApplication> {
  const app = await NestFactory.create(notesModule(database), { logger: false, abortOnError: false });
  // The package's errors as problem details: this host has no filter of its own.
  app.useGlobalFilters(new DomainErrorFilter());
  return app.init();
}

describe('FileFieldsModule in another NestJS application', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startNotesApp(database);
    http = request(app.getHttpServer());
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('uploads to its entity, resolves the fields on its own routes, and deletes', async () => {
    const note = (await http.post('/notes').send({ title: 'minutes' }).expect(201)).body as { id: number };
    expect((await http.get(`/notes/${note.id}`).expect(200)).body).toEqual({
      id: note.id,
      title: 'minutes',
      attachment: null,
      pages: [],
    });

    const attachment = (await http.post(`/files/note/${note.id}/attachment`).attach('file', PDF, 'a.pdf').expect(201))
      .body as FileRecordDto;
    const pages = (
      await http
        .post(`/files/note/${note.id}/pages`)
        .attach('file', PNG, 'p1.png')
        .attach('file', PNG, 'p2.png')
        .expect(201)
    ).body as FileRecordDto[];
    expect(pages.map((page) => page.sort_order)).toEqual([0, 1]);

    const resolved = (await http.get(`/notes/${note.id}`).expect(200)).body;
    expect(resolved.attachment).toMatchObject({
      id: attachment.id,
      path: attachment.path,
      attachment_type: 'note',
      attachment_id: note.id,
      sort_order: 0,
    });
    expect(resolved.pages.map((page: FileRecordDto) => page.id)).toEqual(pages.map((page) => page.id));

    const content = await http.get(`/files/${pages[1].id}/content`).expect(200);
    expect(Buffer.compare(content.body as Buffer, PNG)).toBe(0);
    await http.delete(`/files/${pages[0].id}`).expect(204);
    const after = (await http.get(`/notes/${note.id}`).expect(200)).body;
    expect(after.pages).toEqual([expect.objectContaining({ id: pages[1].id, sort_order: 0 })]);
    expect(after.attachment).toMatchObject({ id: attachment.id });
  });

  it('guards its own routes by the permissions they declare, with no guard of the host', async () => {
    const note = (await http.post('/notes').send({ title: 'guarded' }).expect(201)).body as { id: number };
    const record = (await http.post(`/files/note/${note.id}/attachment`).attach('file', PDF, 'a.pdf').expect(201))
      .body as { id: number };
    const as = (caller: string) =>
      request(app.getHttpServer()).post(`/files/note/${note.id}/attachment`).set('X-Caller', caller);
    expect((await as('reader').attach('file', PDF, 'b.pdf')).status).toBe(403);
    expect((await as('nobody').attach('file', PDF, 'b.pdf')).status).toBe(401);
    const read = (caller: string) => request(app.getHttpServer()).get(`/files/${record.id}`).set('X-Caller', caller);
    expect((await read('reader')).status).toBe(200);
    expect((await read('nobody')).status).toBe(401);
    // Nothing the refused callers sent was kept.
    expect((await http.get(`/notes/${note.id}`).expect(200)).body).toMatchObject({ attachment: { id: record.id } });
  });
});

describe('FileFieldsModule in two applications of one process', () => {
  const databases: TestDatabase[] = [];
  const apps: INestApplication[] = [];

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.drop();
  });

  it("resolves each application's responses from its own database, before and after the other one closes", async () => {
    for (let i = 0; i < 2; i++) {
      databases.push(await createTestDatabase());
      apps.push(await startNotesApp(databases[i]));
    }
    const [first, second] = apps.map((app) => request(app.getHttpServer()));
    for (const [http, name] of [
      [first, 'first.pdf'],
      [second, 'second.pdf'],
    ] as const) {
      const note = (await http.post('/notes').send({ title: name }).expect(201)).body as { id: number };
      expect(note.id).toBe(1);
      await http.post('/files/note/1/attachment').attach('file', PDF, name).expect(201);
    }
    expect((await first.get('/notes/1').expect(200)).body.attachment).toMatchObject({ original_name: 'first.pdf' });
    expect((await second.get('/notes/1').expect(200)).body.attachment).toMatchObject({ original_name: 'second.pdf' });

    await apps.shift()!.close();
    expect((await second.get('/notes/1').expect(200)).body.attachment).toMatchObject({ original_name: 'second.pdf' });
    const third = await startNotesApp(databases[0]);
    apps.push(third);
    const resolved = (await request(third.getHttpServer()).get('/notes/1').expect(200)).body;
    expect(resolved.attachment).toMatchObject({ original_name: 'first.pdf' });
  });
});
