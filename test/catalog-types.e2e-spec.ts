import { Module } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import request from 'supertest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { generateApiDocument } from '../src/api-document.js';
import { AppModule } from '../src/app.module.js';
import { CatalogModule } from '../src/catalog/index.js';
import { generateMigration } from '../src/command-line/migration-generate-run.js';
import { AttachmentType, FileField, type FileRecordDto } from '@file-fields/nest';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openMainNavigation, openPageAt, shootAndCheckLayout, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { expectProblem, PDF, PNG } from './support/fixtures.js';
import { ADMIN_PASSWORD, createTestDatabase, startApp, type TestApp } from './support/test-app.js';

/** A third type, as a developer adds one: this entity file, and its line in a CatalogModule.forRoot. */
@Entity({ name: 'authors' })
@AttachmentType('author', { collectionPath: '/authors' })
class Author {
  @ApiProperty({ type: 'integer', example: 3 })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ maxLength: 200, example: 'Ursula K. Le Guin' })
  @Column({ type: 'varchar', length: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ type: String, nullable: true, description: 'A few lines about the author' })
  @Column({ type: 'text', nullable: true })
  @IsOptional()
  @IsString()
  bio!: string | null;

  @ApiProperty()
  @CreateDateColumn()
  created_at!: Date;

  @FileField({ accept: ['image/*'] })
  avatar?: FileRecordDto | null;

  @FileField({ multi: true })
  portfolio?: FileRecordDto[];
}

/** The service with the type's line in CatalogModule.forRoot, and the migrations `migration:generate` wrote for it. */
function serviceWithAuthors(migrations: Function[] = []) {
  @Module({ imports: [AppModule, CatalogModule.forRoot({ types: [Author], migrations })] })
  class ServiceWithAuthors {}
  return ServiceWithAuthors;
}
// The line as the application module holds it when the generator loads it: the generator reads what it serves.
serviceWithAuthors();

/** Screenshots of its administration pages (CATALOG_TYPES_SHOTS moves them, e.g. to look at them while working). */
const SHOTS = process.env.CATALOG_TYPES_SHOTS ?? join(process.cwd(), 'test-results', 'catalog-types');

describe('A catalog type declared in one entity file and one line', () => {
  let t: TestApp;
  const api = () => t.http;

  let migrations: string;
  let path: string | undefined;

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    // Inside the project, whose package.json makes the generated file an ES module, as in src/.
    await mkdir(join(process.cwd(), 'dist-test'), { recursive: true });
    migrations = await mkdtemp(join(process.cwd(), 'dist-test', 'catalog-types-'));
    await writeFile(join(migrations, 'index.ts'), '');
    const env = { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL || undefined };
    path = await generateMigration({ directory: migrations, name: 'AddAuthors' }, env);
    const generated = (await import(join(migrations, 'index.ts'))) as Record<string, Function>;
    t = await startApp(await createTestDatabase(), {}, serviceWithAuthors(Object.values(generated)));
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await rm(migrations, { recursive: true, force: true });
  });

  it('gets its table from the migration `npm run migration:generate` writes, on SQLite and PostgreSQL', async () => {
    expect(path).toMatch(/\/\d{13}-add-authors\.ts$/);
    const source = await readFile(path!, 'utf8');
    const className = /export class (AddAuthors\d{13})/.exec(source)?.[1];
    expect(await readFile(join(migrations, 'index.ts'), 'utf8')).toBe(
      `export { ${className} } from './${basename(path!, '.ts')}.js';\n`,
    );
    // Its reads are kept while its data stays the same: the migration counts the table's changes.
    expect(source).toMatch(/countChangesOf\(queryRunner, \[['"]authors['"]\]\)/);
    // Nothing left between the entities and the schema: the generated migration, run at start, creates the table.
    expect((await t.dataSource.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });

  it('has the five routes, with request bodies validated from its columns', async () => {
    const created = await api().post('/authors').send({ name: 'Ursula K. Le Guin' }).expect(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: 'Ursula K. Le Guin',
      avatar: null,
      portfolio: [],
    });
    const { id } = created.body as { id: number };
    await api().get(`/authors/${id}`).expect(200, created.body);
    const patched = await api().patch(`/authors/${id}`).send({ bio: 'Wrote Earthsea' }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Ursula K. Le Guin', bio: 'Wrote Earthsea' });
    // The read kept before the change is not answered again.
    await api().get(`/authors/${id}`).expect(200, patched.body);
    await api().patch(`/authors/${id}`).send({ bio: null }).expect(200);

    const fieldsOf = (problem: Record<string, unknown>) =>
      (problem.errors as Array<{ field: string }>).map((error) => error.field).sort();
    expect(fieldsOf(expectProblem(await api().post('/authors').send({}), 400, 'validation-failed'))).toEqual(['name']);
    const extra = expectProblem(await api().post('/authors').send({ name: 'x', id: 9, created_at: 1 }), 400);
    expect(fieldsOf(extra)).toEqual(['created_at', 'id']);
    // A column that takes no null refuses one, rather than failing in the database.
    expect(fieldsOf(expectProblem(await api().patch(`/authors/${id}`).send({ name: null }), 400))).toEqual(['name']);
    expectProblem(await api().get('/authors/999999'), 404, 'not-found');
  });

  it('lists a page searched in its text columns and sorted by them', async () => {
    for (const name of ['Octavia Butler', 'Ted Chiang']) await api().post('/authors').send({ name }).expect(201);
    const page = await api().get('/authors').query({ q: 'chiang' }).expect(200);
    expect(page.body).toMatchObject({ total: 1, limit: expect.any(Number), offset: 0 });
    expect((page.body as { items: Author[] }).items.map((author) => author.name)).toEqual(['Ted Chiang']);
    const sorted = await api().get('/authors').query({ sort: '-name', limit: 2 }).expect(200);
    expect((sorted.body as { items: Author[] }).items.map((author) => author.name)).toEqual([
      'Ursula K. Le Guin',
      'Ted Chiang',
    ]);
    expectProblem(await api().get('/authors').query({ sort: 'avatar' }), 400, 'validation-failed');
  });

  it('takes uploads to its fields, resolved on its reads in order, and removed with it', async () => {
    const { id } = (await api().post('/authors').send({ name: 'N. K. Jemisin' }).expect(201)).body as Author;
    const avatar = await api().post(`/files/author/${id}/avatar`).attach('file', PNG, 'me.png').expect(201);
    expectProblem(await api().post(`/files/author/${id}/avatar`).attach('file', PDF, 'me.pdf'), 415);
    const first = await api().post(`/files/author/${id}/portfolio`).attach('file', PDF, 'one.pdf').expect(201);
    const second = await api().post(`/files/author/${id}/portfolio`).attach('file', PNG, 'two.png').expect(201);
    const read = (await api().get(`/authors/${id}`).expect(200)).body as Author;
    expect(read.avatar).toMatchObject({ id: avatar.body.id, mime_type: 'image/png' });
    expect(read.portfolio?.map((file) => file.id)).toEqual([first.body.id, second.body.id]);
    const listed = (await api().get('/authors').query({ q: 'jemisin' }).expect(200)).body as { items: Author[] };
    expect(listed.items[0].portfolio?.map((file) => file.original_name)).toEqual(['one.pdf', 'two.png']);

    await api().delete(`/authors/${id}`).expect(204);
    await api().get(`/files/${first.body.id}`).expect(404);
  });

  it('guards its routes with author:read and author:write, listed in the permission catalog', async () => {
    const permissions = ((await api().get('/api/permissions').expect(200)).body as Array<{ permission: string }>).map(
      (use) => use.permission,
    );
    expect(permissions).toEqual(expect.arrayContaining(['author:read', 'author:write']));
    const reader = await integrationToken(t.url, await createIntegration(t, ['author:read']));
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    await request(t.url).get('/authors').set(as(reader)).expect(200);
    expectProblem(await request(t.url).post('/authors').set(as(reader)).send({ name: 'x' }), 403);
    const productReader = await integrationToken(t.url, await createIntegration(t, ['product:read']));
    expectProblem(await request(t.url).get('/authors').set(as(productReader)), 403);
  });

  it('is documented in the OpenAPI document: five secured operations and its request bodies', () => {
    const document = generateApiDocument(t.app);
    const operations = [
      ['/authors', 'get', 'listAuthors'],
      ['/authors', 'post', 'createAuthor'],
      ['/authors/{id}', 'get', 'getAuthor'],
      ['/authors/{id}', 'patch', 'updateAuthor'],
      ['/authors/{id}', 'delete', 'deleteAuthor'],
    ] as const;
    for (const [path, method, operationId] of operations) {
      const operation = document.paths[path]?.[method];
      expect(operation).toMatchObject({ operationId, security: expect.any(Array) });
      expect(operation?.security?.length).toBeGreaterThan(0);
    }
    const schemas = document.components?.schemas ?? {};
    expect(schemas.CreateAuthor).toMatchObject({ required: ['name'] });
    expect(Object.keys((schemas.CreateAuthor as { properties: object }).properties).sort()).toEqual(['bio', 'name']);
    expect(schemas.UpdateAuthor).not.toHaveProperty('required');
    // Answers always hold bio (null when empty); a request may leave it out.
    expect(schemas.Author).toMatchObject({ required: expect.arrayContaining(['id', 'name', 'bio', 'created_at']) });
    expect(Object.keys((schemas.Author as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['avatar', 'portfolio']),
    );
  });

  it.each(WIDTHS)(
    'has administration pages at %i px, made from its OpenAPI operations: its list, its form and its file fields',
    async (width) => {
      const browser = await openBrowser();
      try {
        const page = await openPageAt(browser, width);
        const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));
        await page.goto(`${t.url}/admin/`);
        await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await (await openMainNavigation(page)).getByRole('link', { name: 'Authors', exact: true }).click();
        await page.getByRole('link', { name: 'Ted Chiang' }).waitFor();
        await shoot('authors');

        await page.getByRole('button', { name: 'Add author' }).click();
        const dialog = page.getByRole('dialog');
        const name = `Becky Chambers (${width})`;
        await dialog.getByLabel('Name').fill(name);
        await dialog.getByRole('button', { name: 'Create' }).click();
        await page.waitForURL(/\/admin\/content\/author\/\d+$/);
        await page.getByRole('heading', { level: 1, name }).waitFor();
        await page.getByRole('region', { name: 'Avatar', exact: true }).waitFor();
        await page.getByRole('region', { name: 'Portfolio', exact: true }).waitFor();
        await shoot('author');
        const id = Number(new URL(page.url()).pathname.split('/').pop());
        expect((await api().get(`/authors/${id}`).expect(200)).body).toMatchObject({ name });
      } finally {
        await browser.close();
      }
    },
  );
});
