import { useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState, ErrorMessage, PageHeader, Progress } from '../../components/ui';
import { pluralLabel, singularLabel, useContentTypes, type AttachmentTypeInfo } from '../../content-types';
import { usePermissions } from '../../permissions';
import { allFilesOf, displayNameOf, useEntityPage, type Entity } from './entities/entity-api';
import { CreateEntityDialog } from './entities/entity-editing';
import { EntityPage } from './entities/entity-page';
import { entitySchemaOf, nameInWords, useApiDocument, type EntitySchema } from './entities/entity-schema';
import { isImage, thumbnailUrl } from './files/file-item';
import type { ListColumn } from '../../components/lists/data-table';
import { ListView } from '../../components/lists/list-view';
import { useListParams } from '../../components/lists/use-list-params';

/** The entities of one attachable type (/content/:type), a page at a time, and "Add <type>" with its write permission. */
export function ContentListPage() {
  const { type = '' } = useParams();
  return <WithType type={type}>{(info, schema) => <EntityList key={type} info={info} schema={schema} />}</WithType>;
}

/** One entity: its own properties, then each of its file fields (/content/:type/:id). */
export function ContentDetailPage() {
  const { type = '', id = '' } = useParams();
  return (
    <>
      <p className="back-link">
        <Link to={`/content/${type}`}>← {pluralLabel(type)}</Link>
      </p>
      <WithType type={type}>
        {(info, schema) =>
          /^\d+$/.test(id) ? (
            <EntityPage key={`${type}/${id}`} info={info} schema={schema} id={Number(id)} />
          ) : (
            <EmptyState title={`There is no ${singularLabel(type).toLowerCase()} ${id}`}>
              <Link to={`/content/${type}`}>Pick one from the list.</Link>
            </EmptyState>
          )
        }
      </WithType>
    </>
  );
}

/**
 * The type's rules once GET /files/fields has answered, with its labels and forms from the OpenAPI document (from
 * property names alone, and no forms, when the document cannot be read).
 */
function WithType({
  type,
  children,
}: {
  type: string;
  children: (info: AttachmentTypeInfo, schema: EntitySchema) => ReactNode;
}) {
  const types = useContentTypes();
  const document = useApiDocument();
  if (types.isPending || document.isPending) return <Progress label="Loading…" />;
  if (types.isError) return <ErrorMessage error={types.error} />;
  const info = types.data.find((candidate) => candidate.attachment_type === type);
  if (!info) {
    return (
      <EmptyState title={`No content type named “${type}”`}>
        It has no file fields, or your role may not read it. Choose a type under Content in the menu.
      </EmptyState>
    );
  }
  return children(info, entitySchemaOf(document.data, info));
}

function EntityList({ info, schema }: { info: AttachmentTypeInfo; schema: EntitySchema }) {
  const type = info.attachment_type;
  const [adding, setAdding] = useState(false);
  const mayWrite = usePermissions().may(`${type}:write`);
  const noun = singularLabel(type).toLowerCase();
  return (
    <>
      <PageHeader title={pluralLabel(type)}>
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add {noun}
          </button>
        )}
      </PageHeader>
      <EntityTable info={info} schema={schema} mayWrite={mayWrite} />
      <CreateEntityDialog info={info} schema={schema} noun={noun} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

function EntityTable({
  info,
  schema,
  mayWrite,
}: {
  info: AttachmentTypeInfo;
  schema: EntitySchema;
  mayWrite: boolean;
}) {
  const type = info.attachment_type;
  const [params, setParams] = useListParams();
  const page = useEntityPage(info, params);
  const columns = useMemo(() => entityColumns(info, schema), [info, schema]);
  const plural = pluralLabel(type).toLowerCase();
  return (
    <ListView
      label={pluralLabel(type)}
      search={`Search ${plural}`}
      query={page}
      params={params}
      onParams={setParams}
      columns={columns}
      rowKey={(entity) => entity.id}
      empty={{
        title: `No ${plural} yet`,
        hint: mayWrite
          ? `Add the first with “Add ${singularLabel(type).toLowerCase()}”, then give it its files.`
          : 'Someone whose role may change them will add the first.',
      }}
    />
  );
}

/**
 * The name column (the property entities are named by, `name` or `title`, which is also how the API searches and
 * sorts them), the id and the files.
 */
function entityColumns(info: AttachmentTypeInfo, schema: EntitySchema): ListColumn<Entity>[] {
  const type = info.attachment_type;
  const property = 'name' in schema.labels || !('title' in schema.labels) ? 'name' : 'title';
  return [
    {
      id: property,
      header: schema.labels[property]?.title ?? nameInWords(property),
      sort: property,
      cell: (entity) => <Link to={`/content/${type}/${entity.id}`}>{displayNameOf(entity, singularLabel(type))}</Link>,
    },
    { id: 'id', header: 'ID', sort: 'id', className: 'mono', cell: (entity) => entity.id },
    { id: 'files', header: 'Files', cell: (entity) => <FilesSummary entity={entity} info={info} /> },
  ];
}

/** The first image's thumbnail and how many files the entity has. */
function FilesSummary({ entity, info }: { entity: Entity; info: AttachmentTypeInfo }) {
  const files = allFilesOf(entity, info.fields);
  const image = files.find(isImage);
  return (
    <span className="files-summary">
      {image && <img src={thumbnailUrl(image)} alt="" width={40} height={40} loading="lazy" />}
      {files.length === 0 ? 'No files' : `${files.length} ${files.length === 1 ? 'file' : 'files'}`}
    </span>
  );
}
