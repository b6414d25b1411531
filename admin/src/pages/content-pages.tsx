import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { EmptyState, ErrorMessage, PageHeader, Progress, formatDate } from '../components/ui';
import { pluralLabel } from '../content-types';
import { useContentTypes, type AttachmentTypeInfo } from '../content-types';
import {
  allFilesOf,
  collectionPathOf,
  displayNameOf,
  filesOf,
  PAGE_SIZE,
  useEntity,
  useEntityPage,
  type Entity,
} from './content/entity-api';
import { FileFieldPanel } from './content/file-field-panel';
import { isImage, thumbnailUrl } from './content/file-item';
import { Pager } from './content/pager';
import { usePermissions } from '../permissions';

/** The entities of one attachable type (/content/:type), a page at a time. */
export function ContentListPage() {
  const { type = '' } = useParams();
  return (
    <>
      <PageHeader title={pluralLabel(type)} />
      <WithType type={type}>{(info) => <EntityTable info={info} />}</WithType>
    </>
  );
}

/** One entity and each of its file fields (/content/:type/:id). */
export function ContentDetailPage() {
  const { type = '', id = '' } = useParams();
  return (
    <>
      <p className="back-link">
        <Link to={`/content/${type}`}>← {pluralLabel(type)}</Link>
      </p>
      <WithType type={type}>
        {(info) =>
          /^\d+$/.test(id) ? (
            <EntityFiles key={`${type}/${id}`} info={info} id={Number(id)} />
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

/** The type's rules once GET /files/fields has answered, or why there are none. */
function WithType({ type, children }: { type: string; children: (info: AttachmentTypeInfo) => ReactNode }) {
  const types = useContentTypes();
  if (types.isPending) return <Progress label="Loading…" />;
  if (types.isError) return <ErrorMessage error={types.error} />;
  const info = types.data.find((candidate) => candidate.attachment_type === type);
  if (!info) {
    return (
      <EmptyState title={`No content type named “${type}”`}>
        It has no file fields, or your role may not read it. Choose a type under Content in the menu.
      </EmptyState>
    );
  }
  return children(info);
}

function EntityTable({ info }: { info: AttachmentTypeInfo }) {
  const type = info.attachment_type;
  const [search, setSearch] = useSearchParams();
  const offset = Math.max(0, Math.trunc(Number(search.get('offset'))) || 0);
  const page = useEntityPage(info, offset);
  if (page.isPending) return <Progress label={`Loading ${pluralLabel(type).toLowerCase()}…`} />;
  if (page.isError) return <ErrorMessage error={page.error} />;
  const { items, total } = page.data;
  if (total === 0) {
    return (
      <EmptyState title={`No ${pluralLabel(type).toLowerCase()} yet`}>
        They are created through the API (<span className="mono">POST {collectionPathOf(info)}</span>); their files can
        then be managed here.
      </EmptyState>
    );
  }
  const goTo = (next: number) => setSearch(next > 0 ? { offset: String(next) } : {});
  return (
    <>
      {items.length === 0 ? (
        <EmptyState title="Nothing on this page">
          <button type="button" className="link" onClick={() => goTo(0)}>
            Go to the first page
          </button>
        </EmptyState>
      ) : (
        <table className="table content-table" aria-busy={page.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{nameColumnOf(items)}</th>
              <th scope="col">ID</th>
              <th scope="col">Files</th>
            </tr>
          </thead>
          <tbody>
            {items.map((entity) => (
              <tr key={entity.id}>
                <td data-label={nameColumnOf(items)}>
                  <Link to={`/content/${type}/${entity.id}`}>{displayNameOf(entity, singularLabel(type))}</Link>
                </td>
                <td data-label="ID" className="mono">
                  {entity.id}
                </td>
                <td data-label="Files">
                  <FilesSummary entity={entity} info={info} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={PAGE_SIZE} total={total} onOffset={goTo} />
    </>
  );
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

function EntityFiles({ info, id }: { info: AttachmentTypeInfo; id: number }) {
  const type = info.attachment_type;
  const entity = useEntity(info, id);
  // The file fields offer changes only with <type>:write: wait for the permissions too, so that they do not flicker.
  const { me } = usePermissions();
  if (entity.isPending || me.isPending) return <Progress label="Loading…" />;
  if (entity.isError) return <ErrorMessage error={entity.error} />;
  const updated = typeof entity.data.updated_at === 'string' ? entity.data.updated_at : undefined;
  return (
    <>
      <PageHeader title={displayNameOf(entity.data, singularLabel(type))} />
      <p className="entity-meta">
        {singularLabel(type)} <span className="mono">{id}</span>
        {updated && ` · updated ${formatDate(updated)}`}
      </p>
      {info.fields.map((field) => (
        <FileFieldPanel
          key={field.name}
          type={type}
          entityId={id}
          field={field}
          files={filesOf(entity.data, field.name)}
        />
      ))}
    </>
  );
}

/** "gift_card" → "Gift card". */
const singularLabel = (type: string) => {
  const words = type.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** "Title" when the entities have titles rather than names. */
const nameColumnOf = (items: Entity[]) =>
  items.some((entity) => typeof entity.name === 'string') || !items.some((entity) => typeof entity.title === 'string')
    ? 'Name'
    : 'Title';
